import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
export class WomStandIn {
  url = '';
  readonly requests: WomRequest[] = [];
  readonly players = new Map<string, WomPlayerData>();
  /** An outage: 500 to every request, or 'hang' (never answer); null answers normally. */
  fault: 500 | 'hang' | null = null;
  private hung: http.ServerResponse[] = [];
  private server = http.createServer((req, res) => {
    const path = req.url ?? '';
    const key = req.headers['x-api-key'];
    this.requests.push({ at: Date.now(), path, apiKey: typeof key === 'string' ? key : null });
    if (this.fault === 'hang') {
      this.hung.push(res);
      return;
    }
    if (this.fault === 500) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error' }));
      return;
    }
    const m = /^\/players\/([^/?]+)$/.exec(path);
    const player = m && req.method === 'GET' ? this.players.get(decodeURIComponent(m[1]).toLowerCase()) : undefined;
    if (!player) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Player not found.' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ username: m![1], ehb: player.ehb, ehp: player.ehp, latestSnapshot: { data: { skills: { overall: { level: player.level } } } } }));
  });

  /** Adds a player the stand-in knows. */
  add(name: string, data: WomPlayerData): void {
    this.players.set(name.toLowerCase(), data);
  }

  /** Listens on a free port of 127.0.0.1. */
  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Ends the outage: answers normally again and cuts the requests left hanging. */
  heal(): void {
    this.fault = null;
    for (const r of this.hung.splice(0)) r.destroy();
  }

  async stop(): Promise<void> {
    this.heal();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
