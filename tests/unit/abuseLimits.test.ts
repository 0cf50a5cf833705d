import { describe, it, expect, vi, afterEach } from 'vitest';
import { MemoryConnectionCap } from '../../server/realtime/connections';
import { FloodBrake, SocketWindow } from '../../server/realtime/limits';
import { loadConfig } from '../../server/config';

/**
 * The pieces of docs/server.md §8 that need no server: windows, the cap, the configuration (the
 * client address they key on: clientAddress.test.ts).
 */
describe('SocketWindow', () => {
  it('lets 5 events through in one second, refuses the rest, and starts again the next second', () => {
    const w = new SocketWindow(5);
    const first = Array.from({ length: 8 }, (_, i) => w.take(1000 + i));
    expect(first).toEqual([true, true, true, true, true, false, false, false]);
    expect(w.take(1999)).toBe(false);
    expect(w.take(2000)).toBe(true);
  });
});

describe('MemoryConnectionCap', () => {
  it('holds at most the cap per address and frees a place on release', async () => {
    const cap = new MemoryConnectionCap(2);
    expect(await cap.acquire('a', '1')).toBe(true);
    expect(await cap.acquire('a', '2')).toBe(true);
    expect(await cap.acquire('a', '3')).toBe(false);
    expect(await cap.acquire('b', '4')).toBe(true);
    cap.release('a', '1');
    cap.release('a', '1');
    expect(await cap.acquire('a', '5')).toBe(true);
    expect(await cap.acquire('a', '6')).toBe(false);
  });
});

describe('FloodBrake', () => {
  afterEach(() => vi.useRealTimers());

  /** A stand-in Engine.IO transport whose ws records its pause and resume calls. */
  function transport(name: string) {
    const calls: string[] = [];
    return { calls, t: { name, socket: { pause: () => calls.push('pause'), resume: () => calls.push('resume') } } };
  }

  it('pauses a websocket for 20 ms after every 50 drops, and counts afresh after', () => {
    vi.useFakeTimers();
    const { calls, t } = transport('websocket');
    const brake = new FloodBrake(() => t);
    for (let i = 0; i < 49; i += 1) brake.drop();
    expect(calls).toEqual([]);
    brake.drop();
    expect(calls).toEqual(['pause']);
    // Drops read from the chunk already received while paused start no second pause.
    for (let i = 0; i < 100; i += 1) brake.drop();
    vi.advanceTimersByTime(19);
    expect(calls).toEqual(['pause']);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['pause', 'resume']);
    for (let i = 0; i < 49; i += 1) brake.drop();
    expect(calls).toEqual(['pause', 'resume']);
    brake.drop();
    expect(calls).toEqual(['pause', 'resume', 'pause']);
  });

  it('never pauses a long-polling transport, and a disconnect resumes at once, not again later', () => {
    vi.useFakeTimers();
    const polling = transport('polling');
    const slow = new FloodBrake(() => polling.t);
    for (let i = 0; i < 200; i += 1) slow.drop();
    expect(polling.calls).toEqual([]);
    const ws = transport('websocket');
    const brake = new FloodBrake(() => ws.t);
    for (let i = 0; i < 50; i += 1) brake.drop();
    brake.stop();
    expect(ws.calls).toEqual(['pause', 'resume']);
    vi.advanceTimersByTime(2_000);
    brake.stop();
    expect(ws.calls).toEqual(['pause', 'resume']);
  });
});

describe('configuration of the limits', () => {
  it('defaults to the contract numbers and reads TRUST_PROXY', () => {
    const c = loadConfig({});
    expect([c.trustProxy, c.socketsPerAddress, c.actionsPerSocket, c.actionsPerUser, c.joinsPerSocket, c.joinsPerAddress]).toEqual([0, 100, 5, 10, 5, 30]);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'yes' }).trustProxy).toBe(0);
    expect(loadConfig({ SOCKETS_PER_ADDRESS: '-3' }).socketsPerAddress).toBe(100);
  });
});
