// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OwnJoinRequest } from '../../contract/joins';
import { OwnJoinRequests } from '../../src/features/joins/OwnJoinRequests';
import type { JoinEffects } from '../../src/features/joins/effects';
import { FakeSocket } from '../support/fakeSocket';

/**
 * The asker's live decision (docs/server.md §18 "Joining"): while one of the user's requests is
 * pending, OwnJoinRequests listens on the tab's socket for `join_request_decided` and reloads the
 * user (its `onWithdrawn`), so the dashboard and profile show the decision and the membership
 * without a page reload; it reloads after a reconnect too, ignores a malformed notice, opens no
 * socket while nothing is pending, and lets the socket go once nothing is.
 */

const PENDING: OwnJoinRequest = { id: 5, clan_id: 9, clan_name: 'Iron Snakes', status: 'pending', reason: null, created_at: '2026-11-20T10:00:00.000Z' };
const DENIED: OwnJoinRequest = { ...PENDING, id: 6, clan_name: 'Gold Ladders', status: 'denied', reason: 'Full.' };

function setUp(requests: OwnJoinRequest[]) {
  const socket = new FakeSocket();
  const openSocket = vi.fn(() => socket);
  const effects: JoinEffects = {
    loadJoinRequests: vi.fn(), approve: vi.fn(), deny: vi.fn(), saveSettings: vi.fn(), withdraw: vi.fn(),
    openSocket,
  };
  const reload = vi.fn();
  const view = render(<OwnJoinRequests requests={requests} effects={effects} onWithdrawn={reload} />);
  return { socket, openSocket, reload, effects, view };
}

describe('OwnJoinRequests: a manager\'s decision arrives live', () => {
  afterEach(cleanup);

  it('a pending request: join_request_decided reloads the user; a malformed one does not; a reconnect reloads once', () => {
    const { socket, reload } = setUp([PENDING, DENIED]);
    act(() => socket.serverConnects());
    expect(reload).not.toHaveBeenCalled();
    act(() => socket.serverSends('join_request_decided', { id: 5, clan_id: 9, clan_name: 'Iron Snakes', status: 'approved', reason: null }));
    expect(reload).toHaveBeenCalledTimes(1);
    act(() => socket.serverSends('join_request_decided', { id: 5, status: 'maybe' }));
    expect(reload).toHaveBeenCalledTimes(1);
    act(() => socket.drop());
    act(() => socket.serverConnects());
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('nothing pending: no socket; once the request is decided the socket is let go', () => {
    const quiet = setUp([DENIED]);
    expect(quiet.openSocket).not.toHaveBeenCalled();
    cleanup();
    const { socket, openSocket, reload, effects, view } = setUp([PENDING]);
    expect(openSocket).toHaveBeenCalledTimes(1);
    expect(socket.count('join_request_decided')).toBe(1);
    view.rerender(<OwnJoinRequests requests={[{ ...PENDING, status: 'approved' }]} effects={effects} onWithdrawn={reload} />);
    expect(socket.count('join_request_decided')).toBe(0);
    expect(socket.closed).toBe(true);
  });
});
