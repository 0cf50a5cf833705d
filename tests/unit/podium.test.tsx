// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { standingsOf } from '../../contract/game/standings';
import { Podium } from '../../src/ui/Podium';

/** The reusable podium of the winner moment: top three in place order, team colours, text names. */
describe('Podium', () => {
  afterEach(cleanup);
  const teams = [
    { team_id: 1, team_name: 'Red <b>Dragons</b>', team_color: '#cc2222', current_position: 100 },
    { team_id: 2, team_name: 'Blue Moons', team_color: '#2244cc', current_position: 64 },
    { team_id: 3, team_name: 'Green Goblins', team_color: 'not-a-colour', current_position: 80 },
    { team_id: 4, team_name: 'Fourth', team_color: '#ffffff', current_position: 12 },
  ];

  it('lists the first three in place order with place, name, square and team colour', () => {
    render(<Podium standings={standingsOf(teams, [{ name: 'Red <b>Dragons</b>' }])} />);
    const region = screen.getByRole('region', { name: 'Final Standings' });
    const items = within(region).getAllByRole('listitem');
    expect(items.map((li) => li.getAttribute('data-team'))).toEqual(['Red <b>Dragons</b>', 'Green Goblins', 'Blue Moons']);
    expect(items.map((li) => li.textContent)).toEqual(['Red <b>Dragons</b>1stSquare 100', 'Green Goblins2ndSquare 80', 'Blue Moons3rdSquare 64']);
    expect(items[0].style.getPropertyValue('--team')).toBe('#cc2222');
    expect(items[1].style.getPropertyValue('--team')).toBe('#cccccc');
    expect(region.querySelector('b')).toBeNull();
    expect(screen.queryByText('Fourth')).toBeNull();
  });

  it('renders nothing for empty standings; takes a title', () => {
    const { container } = render(<Podium standings={[]} />);
    expect(container.innerHTML).toBe('');
    render(<Podium standings={standingsOf(teams.slice(0, 1), null)} title="Results" />);
    expect(screen.getByRole('region', { name: 'Results' })).toBeTruthy();
  });
});
