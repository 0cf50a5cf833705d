// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AUTO_RULE_MESSAGES } from '../../contract/dink';
import type { Task } from '../../contract/task';
import { renderTasksTab } from '../support/tasksTab';

/**
 * The Dink auto rule of a task in the Tasks tab (docs/client.md §8; docs/server.md §13): shown
 * under the description, edited in the create and edit forms (None by default, names one per
 * line, min for the types with a quantity), checked before it is sent.
 */

const CLAN = 7;
const WITH_RULE: Task = { id: 1, description: 'Obtain a Giant key from Obor', difficulty: 'EASY', clan_id: CLAN, clan_name: 'Iron Legion', auto_rule: { type: 'LOOT', names: ['Giant key', 'Hill giant club'], min: 1, team_total: null, distinct: false } };
const PLAIN: Task = { id: 2, description: 'Catch 200 raw lobsters', difficulty: 'EASY', clan_id: CLAN, clan_name: 'Iron Legion', auto_rule: null };

const renderTab = () => renderTasksTab(CLAN, [WITH_RULE, PLAIN]);

afterEach(cleanup);

describe('a task\'s Dink auto rule in the Tasks tab', () => {
  it('shows the rule under its task, and none under a task without one', async () => {
    renderTab();
    const rows = await screen.findAllByTestId('task-auto-rule');
    expect(rows.map((r) => r.textContent)).toEqual(['Dink: Loot: Giant key, Hill giant club (at least 1)']);
  });

  it('creates a task with no rule by default (null), then one with a rule typed in the form', async () => {
    const { fx, user } = renderTab();
    await screen.findByText('Catch 200 raw lobsters');
    await user.click(screen.getByRole('button', { name: 'Create New Task' }));
    let dialog = screen.getByRole('dialog', { name: 'Create New Task' });
    expect((within(dialog).getByLabelText('Dink type') as HTMLSelectElement).value).toBe('');
    expect(within(dialog).queryByLabelText('Names that count')).toBeNull();
    await user.type(within(dialog).getByRole('textbox'), 'Kill Vorkath');
    await user.selectOptions(within(dialog).getByLabelText('Difficulty'), 'HARD');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(fx.calls('createTask').at(-1)).toEqual([CLAN, { description: 'Kill Vorkath', difficulty: 'HARD', auto_rule: null }]);
    await fx.resolve('createTask', { ...PLAIN, id: 3 });
    await user.click(await within(dialog).findByRole('button', { name: 'Close' }));

    await user.click(screen.getByRole('button', { name: 'Create New Task' }));
    dialog = screen.getByRole('dialog', { name: 'Create New Task' });
    await user.type(within(dialog).getAllByRole('textbox')[0], 'Kill Vorkath 50 times');
    await user.selectOptions(within(dialog).getByLabelText('Difficulty'), 'ELITE');
    await user.selectOptions(within(dialog).getByLabelText('Dink type'), 'KILL_COUNT');
    // Names are required once a type is chosen: the contract's text, and nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(AUTO_RULE_MESSAGES.names);
    await user.type(within(dialog).getByLabelText('Names that count'), 'Vorkath{Enter}  {Enter}vorkath');
    await user.type(within(dialog).getByLabelText('Minimum kill count (optional)'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(AUTO_RULE_MESSAGES.min);
    await user.clear(within(dialog).getByLabelText('Minimum kill count (optional)'));
    await user.type(within(dialog).getByLabelText('Minimum kill count (optional)'), '50');
    expect(fx.calls('createTask')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Create Task' }));
    // Blank lines dropped, names repeated ignoring case taken once (as the server does).
    expect(fx.calls('createTask').at(-1)).toEqual([CLAN, { description: 'Kill Vorkath 50 times', difficulty: 'ELITE', auto_rule: { type: 'KILL_COUNT', names: ['Vorkath'], min: 50, team_total: null, distinct: false } }]);
  });

  it('edits a task with its rule filled in, and removes the rule with None', async () => {
    const { fx, user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Edit task Obtain a Giant key from Obor' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Task' });
    expect((within(dialog).getByLabelText('Dink type') as HTMLSelectElement).value).toBe('LOOT');
    expect((within(dialog).getByLabelText('Names that count') as HTMLTextAreaElement).value).toBe('Giant key\nHill giant club');
    expect((within(dialog).getByLabelText('Minimum quantity (optional)') as HTMLInputElement).value).toBe('1');
    await user.selectOptions(within(dialog).getByLabelText('Dink type'), '');
    await user.click(within(dialog).getByRole('button', { name: 'Save Task' }));
    expect(fx.calls('updateTask').at(-1)).toEqual([CLAN, 1, { description: 'Obtain a Giant key from Obor', difficulty: 'EASY', auto_rule: null }]);
  });
});
