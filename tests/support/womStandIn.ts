import type http from 'node:http';
import { StandInServer } from './standIn';

/** A player the stand-in knows: the numbers a sign-up score and a team total are made of. */
export interface WomPlayerData {
  ehb: number;
  ehp: number;
  level: number;
  /** Skill metric → experience (absent skills answer 0). */
  skills?: Record<string, number>;
  /** Boss metric → kills (absent bosses answer -1, Wise Old Man's "not ranked"). */
  bosses?: Record<string, number>;
  /** Activity metric → score (absent activities answer -1). */
  activities?: Record<string, number>;
}

/** A player's numbers as the stand-in holds them: `live` the game's, `snapshot` what Wise Old Man saw at its last update. */
interface Known {
  name: string;
  live: Required<WomPlayerData>;
  snapshot: Required<WomPlayerData>;
}

/** One request the stand-in received. */
export interface WomRequest {
  at: number;
  method: string;
  path: string;
  apiKey: string | null;
}

/**
 * How the stand-in misbehaves for one player or for everyone: an answer with `status` (429 with
 * `retryAfter` seconds in Retry-After; any 4xx/5xx), 'badJson' (200 with a body that is not JSON),
 * or 'hang' (never answered until `heal()`); `methods` limits it to POST (the update) or GET (the
 * read), both when absent; `times` answers that many requests so and then heals (forever when absent).
 */
export type WomFault = ({ status: number; retryAfter?: number } | { kind: 'badJson' } | { kind: 'hang' }) & { methods?: ('GET' | 'POST')[]; times?: number };

const copy = (d: Required<WomPlayerData>): Required<WomPlayerData> => ({ ...d, skills: { ...d.skills }, bosses: { ...d.bosses }, activities: { ...d.activities } });

/**
 * A local stand-in for Wise Old Man's API (docs/server.md §16 and §17): `POST /players/{username}`
 * (update: takes a new snapshot of the player's live numbers) and `GET /players/{username}` (the
 * last snapshot) answer Wise Old Man's player details for a known player (names compared
 * case-insensitively): top-level `ehb`, `ehp`, and `latestSnapshot.data` with `skills[name]
 * {metric, experience, rank, level}`, `bosses[name] {metric, kills, rank}`, `activities[name]
 * {metric, score, rank}` and `computed.ehb|ehp {metric, value, rank}`; anyone else is 404 to a
 * read and 400 to an update. A test raises the live numbers (`gain`), makes answers fail for one
 * player or everyone (`failFor`, `failAll`: 429 with Retry-After, 5xx, bad JSON, hanging),
 * slows every answer (`delayMs`), and reads what was asked (`requests`, `maxInWindow`). The base's
 * `fault` (500 or hang to everything) still applies.
 */
export class WomStandIn extends StandInServer {
  readonly requests: WomRequest[] = [];
  private readonly known = new Map<string, Known>();
  private readonly playerFaults = new Map<string, WomFault>();
  private allFault: WomFault | null = null;
  /** Every answer waits this long (ms) before it is sent. */
  delayMs = 0;
  private waiting: ReturnType<typeof setTimeout>[] = [];
  private hanging: http.ServerResponse[] = [];

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = req.url ?? '';
    const key = req.headers['x-api-key'];
    const method = req.method ?? 'GET';
    this.requests.push({ at: Date.now(), method, path, apiKey: typeof key === 'string' ? key : null });
    if (this.answerFault(res, { message: 'Internal Server Error' })) return;
    const answer = () => this.answer(method, path, res);
    if (this.delayMs > 0) this.waiting.push(setTimeout(answer, this.delayMs));
    else answer();
  }

  private answer(method: string, path: string, res: http.ServerResponse): void {
    const m = /^\/players\/([^/?]+)$/.exec(path);
    const name = m ? decodeURIComponent(m[1]) : '';
    const fault = this.faultFor(name.toLowerCase(), method);
    if (fault) {
      if ('kind' in fault && fault.kind === 'hang') this.hanging.push(res);
      else if ('kind' in fault) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"username": "half an ans');
      } else {
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (fault.retryAfter !== undefined) headers['retry-after'] = String(fault.retryAfter);
        res.writeHead(fault.status, headers);
        res.end(JSON.stringify({ message: fault.status === 429 ? 'Too many requests.' : 'Something went wrong.' }));
      }
      return;
    }
    const player = m && (method === 'GET' || method === 'POST') ? this.known.get(name.toLowerCase()) : undefined;
    if (!player) {
      if (method === 'POST') this.json(res, 400, { message: `Failed to load hiscores for ${name}.` });
      else this.json(res, 404, { message: 'Player not found.' });
      return;
    }
    if (method === 'POST') player.snapshot = copy(player.live);
    this.json(res, 200, details(player.name, player.snapshot));
  }

  /** The fault that answers this request (used up by one when it has `times`), or null. */
  private faultFor(name: string, method: string): WomFault | null {
    for (const [fault, forget] of [
      [this.playerFaults.get(name), () => this.playerFaults.delete(name)],
      [this.allFault, () => (this.allFault = null)],
    ] as const) {
      if (!fault || (fault.methods && !fault.methods.includes(method as 'GET' | 'POST'))) continue;
      if (fault.times !== undefined) {
        fault.times -= 1;
        if (fault.times <= 0) forget();
      }
      return fault;
    }
    return null;
  }

  /** Adds a player the stand-in knows; Wise Old Man's snapshot holds the same numbers until the next update. */
  add(name: string, data: WomPlayerData): void {
    const full: Required<WomPlayerData> = { skills: {}, bosses: {}, activities: {}, ...data };
    this.known.set(name.toLowerCase(), { name, live: copy(full), snapshot: copy(full) });
  }

  /** Forgets a player: Wise Old Man then does not know them (404 to a read, 400 to an update). */
  forget(name: string): void {
    this.known.delete(name.toLowerCase());
  }

  /** Raises a known player's live numbers: experience of a skill, kills of a boss, score of an activity, or hours of 'ehb'/'ehp'. */
  gain(name: string, kind: 'skills' | 'bosses' | 'activities' | 'ehb' | 'ehp', amount: number, metric = ''): void {
    const player = this.known.get(name.toLowerCase());
    if (!player) throw new Error(`The stand-in does not know ${name}`);
    if (kind === 'ehb' || kind === 'ehp') player.live[kind] += amount;
    else player.live[kind][metric] = Math.max(0, player.live[kind][metric] ?? 0) + amount;
  }

  /** Makes requests about one player fail as `fault` says (null: answer normally again). */
  failFor(name: string, fault: WomFault | null): void {
    if (fault) this.playerFaults.set(name.toLowerCase(), { ...fault });
    else this.playerFaults.delete(name.toLowerCase());
  }

  /** Makes every request fail as `fault` says (null: answer normally again); a player's own fault comes first. */
  failAll(fault: WomFault | null): void {
    this.allFault = fault ? { ...fault } : null;
  }

  /** The requests received, optionally only those about `name` or with `method`. */
  asked(filter: { name?: string; method?: string } = {}): WomRequest[] {
    const path = filter.name === undefined ? null : `/players/${encodeURIComponent(filter.name)}`.toLowerCase();
    return this.requests.filter((r) => (path === null || r.path.toLowerCase() === path) && (filter.method === undefined || r.method === filter.method));
  }

  /** The most requests received within any `windowMs` (a minute by default) since `since` (ms). */
  maxInWindow(windowMs = 60_000, since = 0): number {
    const times = this.requests.filter((r) => r.at >= since).map((r) => r.at);
    let best = 0;
    for (let i = 0, j = 0; j < times.length; j++) {
      while (times[j] - times[i] >= windowMs) i++;
      best = Math.max(best, j - i + 1);
    }
    return best;
  }

  override heal(): void {
    super.heal();
    this.allFault = null;
    this.playerFaults.clear();
    for (const r of this.hanging.splice(0)) r.destroy();
  }

  override async stop(): Promise<void> {
    for (const t of this.waiting.splice(0)) clearTimeout(t);
    await super.stop();
  }
}

/** Wise Old Man's player details (its PlayerDetailsResponse, the fields this site reads and their neighbours). */
function details(username: string, d: Required<WomPlayerData>): unknown {
  const skills = Object.fromEntries(
    Object.entries({ overall: 0, ...d.skills }).map(([metric, experience]) => [metric, { metric, experience, rank: 1000, level: metric === 'overall' ? d.level : 99, ehp: 0 }]),
  );
  const bosses = Object.fromEntries(Object.entries(d.bosses).map(([metric, kills]) => [metric, { metric, kills, rank: 1000, ehb: 0 }]));
  const activities = Object.fromEntries(Object.entries(d.activities).map(([metric, score]) => [metric, { metric, score, rank: 1000 }]));
  const computed = { ehb: { metric: 'ehb', value: d.ehb, rank: 1000 }, ehp: { metric: 'ehp', value: d.ehp, rank: 1000 } };
  return {
    id: 1,
    username: username.toLowerCase(),
    displayName: username,
    type: 'regular',
    build: 'main',
    ehb: d.ehb,
    ehp: d.ehp,
    exp: d.skills.overall ?? 0,
    combatLevel: 126,
    latestSnapshot: { playerId: 1, createdAt: new Date().toISOString(), importedAt: null, data: { skills, bosses, activities, computed } },
  };
}
