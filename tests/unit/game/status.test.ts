import { describe, expect, it } from 'vitest';
import {
  actionToStatus,
  GAME_STATUSES,
  GameStatusError,
  initialGameStatus,
  isActiveStatus,
  isGameStatus,
  isPlayableStatus,
  isStatusChangeAllowed,
  statusChangeError,
  statusClass,
  statusToChartState,
  type GameStatus,
} from '../../../contract/game';

describe('game status', () => {
  it('maps every server status to a chart state', () => {
    expect(GAME_STATUSES.map(statusToChartState)).toEqual(['pending', 'ready', 'inProgress', 'paused', 'finished', 'finished']);
    expect(() => statusToChartState('running' as GameStatus)).toThrow(GameStatusError);
    expect(isGameStatus('paused')).toBe(true);
    expect(isGameStatus('Paused')).toBe(false);
  });

  it('splits active and former games, and styles statuses', () => {
    expect(GAME_STATUSES.filter(isActiveStatus)).toEqual(['PENDING', 'READY', 'in-progress', 'paused']);
    expect(GAME_STATUSES.filter(isPlayableStatus)).toEqual(['in-progress']);
    expect(statusClass('PENDING')).toBe('pending');
    expect(statusClass('in-progress')).toBe('in-progress');
    expect(statusClass('In  Progress')).toBe('in-progress');
    expect(initialGameStatus(0)).toBe('PENDING');
    expect(initialGameStatus(2)).toBe('READY');
  });

  it('allows exactly the transitions of the server contract', () => {
    const allowed = new Set(['PENDING>in-progress', 'READY>in-progress', 'paused>in-progress', 'in-progress>paused']);
    for (const from of GAME_STATUSES) {
      for (const to of [...GAME_STATUSES, 'bogus']) {
        expect(isStatusChangeAllowed(from, to), `${from} -> ${to}`).toBe(allowed.has(`${from}>${to}`));
      }
    }
  });

  it('explains refusals with codes', () => {
    expect(statusChangeError('finished', 'in-progress')).toMatchObject({ code: 'game_finished', message: 'Game is finished. Its status can no longer change.' });
    expect(statusChangeError('completed', 'paused')?.code).toBe('game_finished');
    expect(statusChangeError('READY', 'finished')?.code).toBe('not_requestable');
    expect(statusChangeError('READY', 'paused')).toMatchObject({ code: 'not_allowed', message: 'Game has not started yet, so it cannot be paused.' });
    expect(statusChangeError('paused', 'paused')?.message).toBe('Game is already paused.');
    expect(statusChangeError('in-progress', 'in-progress')?.message).toBe('Game is already in-progress.');
    expect(statusChangeError('nope', 'paused')?.code).toBe('unknown_status');
  });

  it('maps lobby actions to requested statuses', () => {
    expect(actionToStatus('start')).toBe('in-progress');
    expect(actionToStatus('resume')).toBe('in-progress');
    expect(actionToStatus('pause')).toBe('paused');
    expect(() => actionToStatus('explode')).toThrow('Unknown game action: explode');
    expect(() => actionToStatus('toString')).toThrow(GameStatusError);
  });
});
