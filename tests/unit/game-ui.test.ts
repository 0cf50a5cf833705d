import { describe, expect, it } from 'vitest';
import { boardSide, cellToSquare, squareToCell, BOARD_SIZES } from '../../contract/game/board';
import { DEFAULT_SETTINGS } from '../../contract/game/settings';
import { autoSplit } from '../../contract/game/split';
import { SETTINGS_MESSAGES } from '../../contract/game/settings';
import { CONFIG_MESSAGES } from '../../contract/game/validate';
import type { BoardSquare, Game } from '../../contract/gameApi';
import {
  BOARD_INFO_DEFAULT,
  CELL,
  LADDER_RUNGS,
  boardExtent,
  cellCenter,
  cellOrigin,
  isDrawable,
  ladderLines,
  pawnOffsets,
  snakePath,
  squareInfoText,
  wrapLabel,
} from '../../contract/game/boardGeometry';
import { changeSettingsDraft, checkSettingsDraft, draftFromSettings, parseSettingsDraft } from '../../contract/game/settingsDraft';
import { boardTextsOf, boardTextsUnchanged, checkBoardTexts, formatPairs, previewConnections } from '../../contract/game/boardEditor';
import { applyGameUpdate } from '../../contract/socket';
import { GAME_TASKS_TEXTS, isFixedSquare, swapRefusal, swapSquareTasks } from '../../contract/game/taskSquares';
import { columnOf, groupSquares, squareTaskLabel, TASK_COLUMNS } from '../../src/features/game/taskColumns';
import { GAME_DIALOG_TEXTS } from '../../src/features/game/EventGameView';

/**
 * Unit tests of the pure helpers of the game screens: board drawing geometry and info
 * texts (docs/client.md §9), the settings form rules (docs/game-rules.md
 * §4), the manual board editor (docs/game-rules.md §13), live updates
 * (docs/server.md §6), and the Game Tasks columns and swap rules (docs/server.md §3, §6).
 */

const square = (over: Partial<BoardSquare> & { id: number; square_index: number }): BoardSquare => ({
  auto_rule: null,
  task_id: null,
  task_description: '',
  task_difficulty: null,
  ...over,
});

describe('board geometry', () => {
  it('puts square 1 bottom left and numbers upward in alternating direction', () => {
    for (const n of BOARD_SIZES) {
      const side = boardSide(n);
      expect(boardExtent(n)).toBe(side * CELL);
      expect(cellOrigin(1, n)).toEqual({ x: 0, y: (side - 1) * CELL });
      expect(cellOrigin(side, n)).toEqual({ x: (side - 1) * CELL, y: (side - 1) * CELL });
      // The second row starts above the first row's last square and runs right to left.
      expect(cellOrigin(side + 1, n)).toEqual({ x: (side - 1) * CELL, y: (side - 2) * CELL });
      expect(cellOrigin(2 * side, n)).toEqual({ x: 0, y: (side - 2) * CELL });
      // Every square has its own cell, inside the board.
      const seen = new Set<string>();
      for (let s = 1; s <= n; s += 1) {
        const o = cellOrigin(s, n);
        expect(o.x).toBeGreaterThanOrEqual(0);
        expect(o.y).toBeGreaterThanOrEqual(0);
        expect(o.x).toBeLessThan(boardExtent(n));
        expect(o.y).toBeLessThan(boardExtent(n));
        seen.add(`${o.x},${o.y}`);
        const { row, col } = squareToCell(s, n);
        expect(cellToSquare(row, col, n)).toBe(s);
      }
      expect(seen.size).toBe(n);
    }
    expect(cellCenter(1, 100)).toEqual({ x: 50, y: 950 });
    expect(cellCenter(100, 100)).toEqual({ x: 50, y: 50 });
  });

  it('draws a snake as a wave from head to tail', () => {
    const head = cellCenter(98, 100);
    const tail = cellCenter(12, 100);
    const d = snakePath(head, tail);
    const numbers = d.replace(/[ML]/g, ' ').trim().split(/\s+/).map(Number);
    expect(numbers.slice(0, 2)).toEqual([head.x, head.y]);
    expect(numbers.slice(-2).map(Math.round)).toEqual([tail.x, tail.y]);
    // Sinuous: the points leave the straight line on both sides.
    const sides = new Set<number>();
    for (let i = 0; i < numbers.length; i += 2) {
      const cross = (tail.x - head.x) * (numbers[i + 1] - head.y) - (tail.y - head.y) * (numbers[i] - head.x);
      if (Math.abs(cross) > 1) sides.add(Math.sign(cross));
    }
    expect([...sides].sort()).toEqual([-1, 1]);
  });

  it('draws a ladder with two rails and 7 rungs between its squares', () => {
    const from = cellCenter(3, 100);
    const to = cellCenter(45, 100);
    const { rails, rungs } = ladderLines(from, to);
    expect(LADDER_RUNGS).toBe(7);
    expect(rails).toHaveLength(2);
    expect(rungs).toHaveLength(7);
    const mid = (p: { x: number; y: number }, q: { x: number; y: number }) => ({ x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 });
    expect(mid(rails[0][0], rails[1][0])).toEqual(from);
    expect(mid(rails[0][1], rails[1][1])).toEqual(to);
  });

  it('offsets pawns that share a square so that none hides another', () => {
    for (let count = 1; count <= 8; count += 1) {
      const offsets = pawnOffsets(count);
      expect(offsets).toHaveLength(count);
      expect(new Set(offsets.map((o) => `${o.x},${o.y}`)).size).toBe(count);
      for (const o of offsets) expect(Math.max(Math.abs(o.x), Math.abs(o.y))).toBeLessThan(CELL / 2);
    }
  });

  it('cuts long task text into lines with an ellipsis', () => {
    expect(wrapLabel('Burn 500 willow logs', 13, 3)).toEqual(['Burn 500', 'willow logs']);
    const long = wrapLabel('Obtain a Primordial crystal or Pegasian crystal or Eternal crystal', 13, 3);
    expect(long).toHaveLength(3);
    expect(long[2].endsWith('…')).toBe(true);
    for (const line of long) expect(line.length).toBeLessThanOrEqual(13);
    expect(wrapLabel('Supercalifragilistic', 8, 2)[0]).toBe('Superca…');
    expect(wrapLabel('', 10, 3)).toEqual([]);
  });

  it('gives the spec info texts of a square', () => {
    const connections = [
      { type: 'snake' as const, start: 40, end: 12 },
      { type: 'ladder' as const, start: 5, end: 33 },
    ];
    expect(BOARD_INFO_DEFAULT).toBe('Click a square to see its task or challenge.');
    expect(squareInfoText(40, connections, 'Snake')).toBe('Snake starts here, leading to square 12');
    expect(squareInfoText(5, connections, 'Ladder')).toBe('Ladder starts here, leading to square 33');
    expect(squareInfoText(7, connections, 'Burn 500 willow logs')).toBe('Burn 500 willow logs');
    expect(squareInfoText(1, connections, 'Start')).toBe('Square 1.');
    expect(squareInfoText(100, connections, 'Finish')).toBe('Square 100.');
    expect(squareInfoText(9, connections, '')).toBe('Square 9.');
  });

  it('draws only connections that fit the board', () => {
    expect(isDrawable({ type: 'snake', start: 30, end: 2 }, 100)).toBe(true);
    expect(isDrawable({ type: 'snake', start: 130, end: 2 }, 100)).toBe(false);
    expect(isDrawable({ type: 'ladder', start: 0, end: 2 }, 100)).toBe(false);
    expect(isDrawable({ type: 'ladder', start: 2.5, end: 20 }, 100)).toBe(false);
    expect(isDrawable({ type: 'ladder', start: 20, end: 20 }, 100)).toBe(false);
  });
});

describe('settings form', () => {
  const base = draftFromSettings(DEFAULT_SETTINGS);

  it('starts from the defaults: 100 squares, 5 snakes, 5 ladders, 3 reverts, 19/20/20/20/19', () => {
    expect(base).toEqual({
      board_size: '100',
      num_snakes: '5',
      num_ladders: '5',
      max_reverts_allowed: '3',
      num_easy_tasks: '19',
      num_medium_tasks: '20',
      num_hard_tasks: '20',
      num_elite_tasks: '20',
      num_master_tasks: '19',
    });
    expect(checkSettingsDraft(base)).toEqual({ error: null, field: null, totalTasks: 98, taskTiles: 98, exceeded: false });
  });

  it('fills the task counts with the auto split when the board size changes', () => {
    for (const n of BOARD_SIZES) {
      const draft = changeSettingsDraft({ ...base, num_snakes: '7' }, 'board_size', String(n));
      const split = autoSplit(n);
      expect(draft.num_easy_tasks).toBe(String(split.easy));
      expect(draft.num_master_tasks).toBe(String(split.master));
      expect(draft.num_snakes).toBe('7');
      expect(checkSettingsDraft(draft).totalTasks).toBe(n - 2);
    }
    // Other fields never touch the counts.
    expect(changeSettingsDraft(base, 'num_easy_tasks', '30').num_medium_tasks).toBe('20');
  });

  it('requires every field', () => {
    for (const field of Object.keys(base) as (keyof typeof base)[]) {
      const check = checkSettingsDraft({ ...base, [field]: '' });
      expect(check.error, field).toBe(SETTINGS_MESSAGES.required);
      expect(check.field, field).toBe(field);
    }
    expect(parseSettingsDraft({ ...base, num_snakes: ' ' })).toBeNull();
    expect(parseSettingsDraft(base)).toEqual(DEFAULT_SETTINGS);
  });

  it('gives the spec messages at the boundaries', () => {
    const at = (over: Partial<typeof base>) => checkSettingsDraft({ ...base, ...over });
    expect(at({ board_size: '24' }).error).toBe('Board size must be a perfect square between 25 and 225.');
    expect(at({ num_snakes: '13' })).toMatchObject({ error: 'Number of snakes must be between 0 and 12.', field: 'num_snakes' });
    expect(at({ num_snakes: '12' }).error).toBeNull();
    expect(at({ num_ladders: '-1' })).toMatchObject({ error: 'Number of ladders must be between 0 and 12.', field: 'num_ladders' });
    expect(at({ max_reverts_allowed: '11' })).toMatchObject({ error: 'Max reverts allowed must be between 0 and 10.', field: 'max_reverts_allowed' });
    expect(at({ max_reverts_allowed: '10' }).error).toBeNull();
    expect(at({ num_easy_tasks: '-1', num_medium_tasks: '40' })).toMatchObject({ error: 'Task counts cannot be negative.', field: 'counts' });
    const over = at({ num_easy_tasks: '20' });
    expect(over).toMatchObject({
      error: 'Total tasks (99) exceeds available task tiles (98). Please reduce task numbers.',
      field: 'counts',
      exceeded: true,
    });
    const under = at({ num_easy_tasks: '18' });
    expect(under).toMatchObject({ error: 'Total tasks (97) is less than available task tiles (98). All task tiles must be filled.', exceeded: false });
  });
});

describe('manual board editor', () => {
  const connections = [
    { type: 'snake' as const, start: 45, end: 12 },
    { type: 'snake' as const, start: 98, end: 61 },
    { type: 'ladder' as const, start: 3, end: 27 },
  ];

  it('fills the boxes from the game, one pair per line, and reads them back', () => {
    const texts = boardTextsOf(connections);
    expect(texts.snakesText).toBe('[\n  [45, 12],\n  [98, 61]\n]');
    expect(texts.laddersText).toBe('[\n  [3, 27]\n]');
    expect(formatPairs([])).toBe('[]');
    expect(checkBoardTexts(100, texts.snakesText, texts.laddersText)).toEqual({
      ok: true,
      body: { snakes_config: [[45, 12], [98, 61]], ladders_config: [[3, 27]] },
    });
    expect(boardTextsUnchanged(connections, texts.snakesText, texts.laddersText)).toBe(true);
    expect(boardTextsUnchanged(connections, texts.snakesText, '[]')).toBe(false);
  });

  it('refuses bad JSON and bad shapes with the spec texts, snakes first', () => {
    const bad = checkBoardTexts(100, '[[45, 12]', '[]');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error.startsWith('Invalid JSON format in Snakes config: ')).toBe(true);
    const badLadders = checkBoardTexts(100, '[]', '{');
    expect(!badLadders.ok && badLadders.error.startsWith('Invalid JSON format in Ladders config: ')).toBe(true);
    expect(checkBoardTexts(100, '{"a": 1}', '[]')).toEqual({ ok: false, error: CONFIG_MESSAGES.notArray });
    expect(checkBoardTexts(100, '[]', '[[3, -27]]')).toEqual({ ok: false, error: 'Each entry must be an array of two positive numbers: [[start, end], ...].' });
    expect(checkBoardTexts(100, '[[1, 2, 3]]', '[]')).toEqual({ ok: false, error: CONFIG_MESSAGES.badEntry });
  });

  it('refuses a board rule violation naming the pair', () => {
    expect(checkBoardTexts(100, '[[12, 30]]', '[]')).toEqual({ ok: false, error: 'Snake [12, 30] must go down: start must be greater than end.' });
    expect(checkBoardTexts(100, '[[45, 12]]', '[[12, 60]]')).toEqual({
      ok: false,
      error: 'Square 12 is used by two connections (Snake [45, 12] and Ladder [12, 60]).',
    });
    expect(checkBoardTexts(100, '[[100, 50]]', '[]')).toEqual({ ok: false, error: 'Snake [100, 50] cannot start or end on square 1 or 100.' });
  });

  it('previews what parses and fits the board', () => {
    expect(previewConnections(100, '[[45, 12], [300, 2]]', '[[3, 27]]')).toEqual([
      { type: 'snake', start: 45, end: 12 },
      { type: 'ladder', start: 3, end: 27 },
    ]);
    expect(previewConnections(100, '[[45, 12]', '[]')).toBeNull();
  });
});

describe('live updates', () => {
  const held = {
    id: 3,
    status: 'in-progress',
    version: 5,
    board_connections: [],
    user_teams: [{ id: 1, osrs_ign_id: 1, user_id: 1, role: 'Leader', player_ign: 'Zezima', name: 'Red', color: '#aa0000' }],
    team_states: [{ team_id: 1, team_name: 'Red', team_color: '#aa0000', current_position: 9, revert_count: 2, position_history: [1, 9] }],
    winners: null,
  } as unknown as Game;
  const progress = (version: number, status: Game['status'] = 'paused') => ({
    id: 3,
    status,
    version,
    winners: null,
    team_states: [{ team_id: 1, team_name: 'Red', team_color: '#aa0000', current_position: 12, position_history: [1, 9, 12], task_state: 'open' as const, square_since: '2025-05-01T10:05:00.000Z' }],
  });

  it('merges the next progress update and keeps revert counts', () => {
    const next = (applyGameUpdate(held, progress(6)) as { game: Game }).game;
    expect(next.status).toBe('paused');
    expect(next.version).toBe(6);
    expect(next.team_states[0]).toMatchObject({ current_position: 12, revert_count: 2 });
  });

  it('asks for the full state when a version is skipped, and ignores old or foreign updates', () => {
    expect(applyGameUpdate(held, progress(7))).toEqual({ resync: true });
    expect((applyGameUpdate(held, progress(4)) as { game: Game }).game).toBe(held);
    expect((applyGameUpdate(held, { ...progress(6), id: 99 }) as { game: Game }).game).toBe(held);
  });

  it('takes a full game, keeping the viewer teams and revert counts of a public one', () => {
    const full = { ...held, version: 9, status: 'finished', user_teams: undefined, team_states: [{ ...held.team_states[0], revert_count: undefined, current_position: 25 }] };
    delete (full as Record<string, unknown>).user_teams;
    const next = (applyGameUpdate(held, { ...full, board_squares: [] } as never) as { game: Game }).game;
    expect(next.status).toBe('finished');
    expect(next.user_teams).toEqual(held.user_teams);
    expect(next.team_states[0]).toMatchObject({ current_position: 25, revert_count: 2 });
  });
});

describe('game tasks columns and swaps', () => {
  const squares: BoardSquare[] = [
    square({ id: 1, square_index: 1, task_description: 'Start' }),
    square({ id: 2, square_index: 2, task_id: 50, task_description: 'Burn logs', task_difficulty: 'EASY' }),
    square({ id: 3, square_index: 3, task_id: 51, task_description: 'Catch fish', task_difficulty: 'EASY' }),
    square({ id: 4, square_index: 4, task_description: 'Ladder' }),
    square({ id: 5, square_index: 5, task_description: '', task_difficulty: 'EASY' }),
    square({ id: 6, square_index: 6, task_id: 60, task_description: 'Kill a boss', task_difficulty: 'HARD' }),
    square({ id: 7, square_index: 7, task_description: 'Snake' }),
    square({ id: 8, square_index: 8, task_id: 70, task_description: 'Elite clue', task_difficulty: 'ELITE' }),
    square({ id: 9, square_index: 9, task_description: 'Finish' }),
  ];

  it('has the spec columns in order', () => {
    expect(TASK_COLUMNS.map((c) => c.title)).toEqual(['Start Square', 'Easy', 'Medium', 'Hard', 'Elite', 'Master', 'Unassigned/Blank', 'Finish Square']);
  });

  it('groups squares: Start, tiers (with Unassigned tier squares), Blank for Snake and Ladder squares, Finish', () => {
    const groups = groupSquares([...squares].reverse());
    expect(groups.start.map((s) => s.id)).toEqual([1]);
    expect(groups.EASY.map((s) => s.id)).toEqual([2, 3, 5]);
    expect(groups.MEDIUM).toEqual([]);
    expect(groups.HARD.map((s) => s.id)).toEqual([6]);
    expect(groups.ELITE.map((s) => s.id)).toEqual([8]);
    expect(groups.blank.map((s) => s.id)).toEqual([4, 7]);
    expect(groups.finish.map((s) => s.id)).toEqual([9]);
    expect(columnOf(squares[4], 9)).toBe('EASY');
    expect(squareTaskLabel(squares[4])).toBe('Unassigned');
    expect(squareTaskLabel(squares[3])).toBe('Ladder');
  });

  it('refuses swaps with fixed squares and across tiers with the spec texts', () => {
    expect(GAME_TASKS_TEXTS.special).toBe('Cannot swap tasks with Start, Finish, Ladder, or Snake squares.');
    expect(GAME_TASKS_TEXTS.acrossTiers).toBe(
      'You can only re-order squares within their own Difficulty Tier column. Drag-and-swap is not supported across columns.',
    );
    expect(swapRefusal(squares[1], squares[0])).toBe(GAME_TASKS_TEXTS.special);
    expect(swapRefusal(squares[1], squares[3])).toBe(GAME_TASKS_TEXTS.special);
    expect(swapRefusal(squares[6], squares[1])).toBe(GAME_TASKS_TEXTS.special);
    expect(swapRefusal(squares[8], squares[1])).toBe(GAME_TASKS_TEXTS.special);
    expect(swapRefusal(squares[1], squares[5])).toBe(GAME_TASKS_TEXTS.acrossTiers);
    expect(swapRefusal(squares[1], squares[2])).toBeNull();
    expect(swapRefusal(squares[1], squares[4])).toBeNull();
    expect(isFixedSquare(squares[0])).toBe(true);
    expect(isFixedSquare(squares[4])).toBe(false);
  });

  it('swaps the tasks of two squares, which keep their numbers', () => {
    const after = swapSquareTasks(squares, 2, 5);
    expect(after[1]).toMatchObject({ id: 2, square_index: 2, task_id: null, task_description: '' });
    expect(after[4]).toMatchObject({ id: 5, square_index: 5, task_id: 50, task_description: 'Burn logs' });
    expect(after.filter((_, i) => i !== 1 && i !== 4)).toEqual(squares.filter((_, i) => i !== 1 && i !== 4));
  });

  it('words the texts of the screen as the spec does', () => {
    expect(GAME_TASKS_TEXTS.missingGame).toBe('Game ID is missing.');
    expect(GAME_TASKS_TEXTS.noCandidates('MASTER')).toBe("No unassigned tasks of difficulty 'MASTER' are available.");
    expect(GAME_TASKS_TEXTS.loadError('x')).toBe('Error loading data: x');
    expect(GAME_TASKS_TEXTS.swapError('x')).toBe('Error saving task swap: x');
    expect(GAME_TASKS_TEXTS.optionsError('x')).toBe('Failed to fetch swap options: x');
    expect(GAME_TASKS_TEXTS.cannotAssign).toBe('Cannot Assign Task');
  });
});

describe('Event Game dialogs', () => {
  it('say what each dialog does', () => {
    expect(GAME_DIALOG_TEXTS.deleteTitle).toBe('Confirm Game Deletion');
    expect(GAME_DIALOG_TEXTS.deleteBody).toMatch(/permanently/);
    expect(GAME_DIALOG_TEXTS.deleteBody).toMatch(/cannot be undone/);
    expect(GAME_DIALOG_TEXTS.resetTitle).toBe('Confirm Game Reset');
    expect(GAME_DIALOG_TEXTS.resetBody).toMatch(/team positions, move history and revert counts/);
    expect(GAME_DIALOG_TEXTS.resetBody).toMatch(/board configuration .* is kept/);
    expect(GAME_DIALOG_TEXTS.resetBody).toMatch(/READY/);
    expect(GAME_DIALOG_TEXTS.randomizeTitle).toBe('Confirm Board Randomization');
    expect(GAME_DIALOG_TEXTS.randomizeBody('in-progress')).toMatch(/currently IN-PROGRESS\./);
    expect(GAME_DIALOG_TEXTS.randomizeBody('paused')).toMatch(/Team positions stay where they are\. This is not a reset\./);
  });
});
