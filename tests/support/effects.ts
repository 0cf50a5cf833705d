import type { TeamsEffects } from '../../src/features/teams/teamsEffects';
import type { GameEffects } from '../../src/features/game/effects';
import type { GameSocketLike } from '../../src/realtime/gameSocket';

/** A promise with its resolve and reject exposed. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

/** Creates a Deferred. */
export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Controllable fake effects for model-based UI tests: every call of `fn(name)` returns a pending
 * promise that the test settles with `resolve(name, value)` or `reject(name, error)`, which wait
 * (up to `timeoutMs`) for the call to have happened. `calls(name)` lists the arguments seen.
 */
export class FakeEffects {
  private pending = new Map<string, Deferred<any>[]>();
  private seen = new Map<string, unknown[][]>();

  fn<T = any>(name: string): (...args: any[]) => Promise<T> {
    return (...args: any[]) => {
      const d = deferred<T>();
      if (!this.pending.has(name)) this.pending.set(name, []);
      this.pending.get(name)!.push(d);
      if (!this.seen.has(name)) this.seen.set(name, []);
      this.seen.get(name)!.push(args);
      return d.promise;
    };
  }

  calls(name: string): unknown[][] {
    return this.seen.get(name) ?? [];
  }

  /** How many calls of `name` wait for the test's answer (made, neither settled nor dropped). */
  waiting(name: string): number {
    return this.pending.get(name)?.length ?? 0;
  }

  /**
   * The arguments of the latest call of `name`, failing at once when no call of it waits for an
   * answer: on fake time (`fakeTimers: 'manual'`) `resolve` and `reject` would wait for one for ever.
   */
  waitingCall(name: string): unknown[] {
    if (this.waiting(name) === 0) throw new Error(`effect '${name}' was never called`);
    return this.calls(name).at(-1)!;
  }

  /**
   * Forgets the calls of `name` that wait for an answer, for a chart that stopped the actors
   * which made them (a search dropped by the next change): no answer of theirs would be heard.
   */
  drop(name: string): void {
    this.pending.delete(name);
  }

  private async take(name: string, timeoutMs: number): Promise<Deferred<any>> {
    const start = Date.now();
    for (;;) {
      const q = this.pending.get(name);
      if (q && q.length) return q.shift()!;
      if (Date.now() - start > timeoutMs) throw new Error(`effect '${name}' was never called`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  async resolve(name: string, value?: unknown, timeoutMs = 3000): Promise<void> {
    (await this.take(name, timeoutMs)).resolve(value);
  }

  async reject(name: string, error: unknown, timeoutMs = 3000): Promise<void> {
    (await this.take(name, timeoutMs)).reject(error);
  }

  /**
   * Answers call `name` as a path's synthetic step of its actor says: a `xstate.done.actor.*` step
   * resolves it with the step's output, a `xstate.error.actor.*` step rejects it with the step's error.
   */
  settle(name: string, step: { type: string; output?: unknown; error?: unknown }): Promise<void> {
    return step.type.startsWith('xstate.done') ? this.resolve(name, step.output) : this.reject(name, step.error);
  }
}

/** The Event Game view's calls as fakes of `fx` (each named as its GameEffects key), and its live socket from `openSocket`. */
export function fakeGameEffects(fx: FakeEffects, openSocket: () => GameSocketLike): GameEffects {
  return {
    fetchGame: fx.fn('fetchGame'),
    createGame: fx.fn('createGame'),
    saveGameRules: fx.fn('saveGameRules'),
    saveGameRelief: fx.fn('saveGameRelief'),
    randomizeGame: fx.fn('randomizeGame'),
    saveBoard: fx.fn('saveBoard'),
    changeGameStatus: fx.fn('changeGameStatus'),
    resetGame: fx.fn('resetGame'),
    deleteGame: fx.fn('deleteGame'),
    openSocket,
  };
}

/** The Event Teams view's calls: those given, every other one refused ('not used here'). */
export function teamsEffects(over: Partial<TeamsEffects> = {}): TeamsEffects {
  const unused = () => Promise.reject(new Error('not used here'));
  return {
    fetchTeams: unused,
    createTeam: unused,
    updateTeam: unused,
    deleteTeam: unused,
    fetchTeamMembers: unused,
    addTeamMember: unused,
    updateTeamMemberRole: unused,
    removeTeamMember: unused,
    ...over,
  };
}
