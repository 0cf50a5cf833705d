// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTO_RULE_MESSAGES } from '../../contract/dink';
import type { Task } from '../../contract/task';
import { renderTasksTab } from '../support/tasksTab';

/**
 * Team-total rules in the Tasks tab (docs/client.md §8; docs/server.md §17 Rules): the rule's text
 * under its task ('Team total: 500,000 Fishing XP'), the Wise Old Man types in the type list with
 * their names picked from the metric lists (loaded on demand), the team total and 'Each name counts
 * once' inputs, and the contract's refusals before anything is sent.
 */

const CLAN = 7;
const XP_TASK: Task = { id: 1, description: 'Team fishing', difficulty: 'HARD', clan_id: CLAN, clan_name: 'Iron Legion', auto_rule: { type: 'XP', names: ['fishing'], min: null, team_total: 500000, distinct: false } };
const SET_TASK: Task = {
  id: 2,
  description: 'Any two Zulrah uniques',
  difficulty: 'ELITE',
  clan_id: CLAN,
  clan_name: 'Iron Legion',
  auto_rule: { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage'], min: null, team_total: 2, distinct: true },
};

const renderTab = () => renderTasksTab(CLAN, [XP_TASK, SET_TASK]);

afterEach(cleanup);

describe('team-total rules in the Tasks tab', () => {
  it('shows each rule as players read it', async () => {
    renderTab();
    const rows = await screen.findAllByTestId('task-auto-rule');
    expect(rows.map((r) => r.textContent).sort()).toEqual([
      'Dink: Team total: any 2 of Tanzanite fang, Magic fang or Serpentine visage (Loot)',
      'Wise Old Man: Team total: 500,000 Fishing XP',
    ]);
  });

  it('creates an XP total: the name picked from the lists, the total required, an unknown skill refused by name', async () => {
    const { fx, user } = renderTab();
    await screen.findByText('Team fishing');
    await user.click(screen.getByRole('button', { name: 'Create New Task' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Task' });
    await user.type(within(dialog).getAllByRole('textbox')[0], 'Fish as a team');
    await user.selectOptions(within(dialog).getByLabelText('Difficulty'), 'HARD');
    await user.selectOptions(within(dialog).getByLabelText('Dink type'), 'XP');
    expect(within(dialog).queryByLabelText(/Minimum/)).toBeNull();
    expect(within(dialog).queryByLabelText('Each name counts once', { exact: false })).toBeNull();
    // The metric lists arrive on demand; the picker adds a name on its own line.
    const picker = await within(dialog).findByLabelText('Add a Wise Old Man name');
    expect(within(picker).getByRole('option', { name: 'woodcutting' })).toBeTruthy();
    expect(within(picker).queryByRole('option', { name: 'zulrah' })).toBeNull();
    await user.type(within(dialog).getByLabelText('Names that count'), 'fishin');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(AUTO_RULE_MESSAGES.needsTotal);
    await user.type(within(dialog).getByLabelText('Team total'), '500,000');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert').textContent).toBe("auto_rule name 'fishin' is not a Wise Old Man skill metric.");
    await user.clear(within(dialog).getByLabelText('Names that count'));
    await user.selectOptions(within(dialog).getByLabelText('Add a Wise Old Man name'), 'fishing');
    await user.selectOptions(within(dialog).getByLabelText('Add a Wise Old Man name'), 'cooking');
    expect((within(dialog).getByLabelText('Names that count') as HTMLTextAreaElement).value).toBe('fishing\ncooking');
    expect(fx.calls('createTask')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(fx.calls('createTask').at(-1)).toEqual([CLAN, { description: 'Fish as a team', difficulty: 'HARD', auto_rule: { type: 'XP', names: ['fishing', 'cooking'], min: null, team_total: 500000, distinct: false } }]);
  });

  it('a Dink total: a minimum and a total refused together; distinct sent; EHB takes no names', async () => {
    const { fx, user } = renderTab();
    await screen.findByText('Team fishing');
    await user.click(screen.getByRole('button', { name: 'Create New Task' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Task' });
    await user.type(within(dialog).getAllByRole('textbox')[0], 'Any three of five');
    await user.selectOptions(within(dialog).getByLabelText('Difficulty'), 'ELITE');
    await user.selectOptions(within(dialog).getByLabelText('Dink type'), 'LOOT');
    await user.type(within(dialog).getByLabelText('Names that count'), 'Tanzanite fang{Enter}Magic fang{Enter}Serpentine visage');
    await user.type(within(dialog).getByLabelText('Minimum quantity (optional)'), '1');
    await user.type(within(dialog).getByLabelText('Team total (optional)'), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(AUTO_RULE_MESSAGES.totalAndMin);
    await user.clear(within(dialog).getByLabelText('Minimum quantity (optional)'));
    await user.click(within(dialog).getByLabelText('Each name counts once', { exact: false }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(fx.calls('createTask').at(-1)).toEqual([
      CLAN,
      { description: 'Any three of five', difficulty: 'ELITE', auto_rule: { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage'], min: null, team_total: 3, distinct: true } },
    ]);
    await fx.resolve('createTask', { ...SET_TASK, id: 3, description: 'Any three of five' });
    await user.click(await within(dialog).findByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'Create New Task' }));
    const again = screen.getByRole('dialog', { name: 'Create New Task' });
    await user.type(within(again).getAllByRole('textbox')[0], 'Boss for 20 hours');
    await user.selectOptions(within(again).getByLabelText('Difficulty'), 'MASTER');
    await user.selectOptions(within(again).getByLabelText('Dink type'), 'EHB');
    expect(within(again).queryByLabelText('Names that count')).toBeNull();
    await user.type(within(again).getByLabelText('Team total'), '20');
    await user.click(within(again).getByRole('button', { name: 'Create Task' }));
    await waitFor(() => expect(fx.calls('createTask')).toHaveLength(2));
    expect(fx.calls('createTask').at(-1)).toEqual([CLAN, { description: 'Boss for 20 hours', difficulty: 'MASTER', auto_rule: { type: 'EHB', names: [], min: null, team_total: 20, distinct: false } }]);
  });

  it('edits a set with its total and distinct filled in', async () => {
    const { fx, user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Edit task Any two Zulrah uniques' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Task' });
    expect((within(dialog).getByLabelText('Team total (optional)') as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByLabelText('Each name counts once', { exact: false }) as HTMLInputElement).checked).toBe(true);
    await user.clear(within(dialog).getByLabelText('Team total (optional)'));
    await user.type(within(dialog).getByLabelText('Team total (optional)'), '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save Task' }));
    expect(fx.calls('updateTask').at(-1)).toEqual([
      CLAN,
      2,
      { description: 'Any two Zulrah uniques', difficulty: 'ELITE', auto_rule: { type: 'LOOT', names: ['Tanzanite fang', 'Magic fang', 'Serpentine visage'], min: null, team_total: 3, distinct: true } },
    ]);
  });
});
