import type http from 'node:http';
import { StandInServer } from './standIn';

/** A player the stand-in knows: the numbers a score is made of. */
export interface WomPlayerData {
  ehb: number;
  ehp: number;
  level: number;
}

/** One request the stand-in received. */
export interface WomRequest {
  at: number;
  path: string;
  apiKey: string | null;
}

/**
 * A local stand-in for Wise Old Man's API (docs/server.md §16): `GET /players/{username}` answers
 * `{ehb, ehp, latestSnapshot: {data: {skills: {overall: {level}}}}}` for a known player (names
 * compared case-insensitively) and 404 for anyone else; every request is recorded with its
 * `x-api-key` header. While `fault` is set, every request is answered 500 or never answered
 * ('hang'; cut when the fault is cleared with `heal()` or the stand-in stops).
 */
export class WomStandIn extends StandInServer {
  readonly requests: WomRequest[] = [];
  readonly players = new Map<string, WomPlayerData>();

  protected handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = req.url ?? '';
    const key = req.headers['x-api-key'];
    this.requests.push({ at: Date.now(), path, apiKey: typeof key === 'string' ? key : null });
    if (this.answerFault(res, { message: 'Internal Server Error' })) return;
    const m = /^\/players\/([^/?]+)$/.exec(path);
    const player = m && req.method === 'GET' ? this.players.get(decodeURIComponent(m[1]).toLowerCase()) : undefined;
    if (!player) {
      this.json(res, 404, { message: 'Player not found.' });
      return;
    }
    this.json(res, 200, { username: m![1], ehb: player.ehb, ehp: player.ehp, latestSnapshot: { data: { skills: { overall: { level: player.level } } } } });
  }

  /** Adds a player the stand-in knows. */
  add(name: string, data: WomPlayerData): void {
    this.players.set(name.toLowerCase(), data);
  }
}
