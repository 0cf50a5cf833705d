import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Discord's webhook endpoint (docs/server.md §10), for the
 * announcement tests: `POST /api/webhooks/{id}/{token}` records every request, and answers by a
 * script the test sets (one scripted answer per request, then 204 as Discord does):
 * - `{status: 429, retry_after}`: rate limited, with Discord's JSON body and Retry-After header
 * - `{status: 500}` or any status with an optional body (404 → Discord's "Unknown Webhook")
 * - `'hang'`: never answers (the server must give up after 5 s)
 * - `{redirect: url}`: 302 to `url` (the server must not follow it)
 * While `fault` is set (an outage), every request the script does not answer gets 500 or 'hang'.
 */
export type ScriptedAnswer = 'hang' | { status: number; retry_after?: number; body?: unknown } | { redirect: string };

/** One request the stand-in received. */
export interface WebhookPost {
  at: number;
  path: string;
  /** The query string, '' or '?thread_id=...' (a forum thread, docs/server.md §13). */
  query: string;
  body: any;
  /** What it was answered: the status, or 'hang'. */
  answer: number | 'hang';
}

export class DiscordWebhookStandIn {
  url = '';
  /** Every request, in arrival order. */
  readonly requests: WebhookPost[] = [];
  /** Answers for the next requests, first first. */
  script: ScriptedAnswer[] = [];
  /** An outage: 500 to every unscripted request, or 'hang'; null answers 204. */
  fault: 500 | 'hang' | null = null;
  private hung: http.ServerResponse[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));

  /** Listens on 127.0.0.1:`port` (0: any free port). */
  /**
   * The env of a server posting to this stand-in: socket rate limits out of the way, a 100 ms
   * poll, 7 s leases, 500 ms first backoff and the contract's 10 s roll window unless `extra`
   * says otherwise (DISCORD_ROLL_WINDOW_MS).
   */
  serverEnv(extra: Record<string, string> = {}): Record<string, string> {
    return {
      ROLLS_PER_SOCKET: '1000',
      ROLLS_PER_USER: '1000',
      JOINS_PER_SOCKET: '1000',
      JOINS_PER_ADDRESS: '1000',
      DISCORD_WEBHOOK_ORIGIN: this.url,
      DISCORD_POLL_MS: '100',
      DISCORD_LEASE_MS: '7000',
      DISCORD_BACKOFF_MS: '500',
      ...extra,
    };
  }

  async start(port = 0): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    for (const r of this.hung) r.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A webhook URL of this stand-in (with DISCORD_WEBHOOK_ORIGIN set to `url`). */
  webhook(id: string, token = 'tok_' + id + '_abcdefghijklmnop'): string {
    return `${this.url}/api/webhooks/${id}/${token}`;
  }

  /** The posts Discord accepted (2xx) to the webhook `id`, in order. */
  accepted(id?: string): WebhookPost[] {
    return this.requests.filter((r) => typeof r.answer === 'number' && r.answer < 300 && (id === undefined || r.path.startsWith(`/api/webhooks/${id}/`)));
  }

  /** Waits until `test` holds (checked every 50 ms); rejects after `ms` with `what`. */
  async until(test: () => boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test()) {
      if (Date.now() > deadline) throw new Error(`Discord stand-in: ${what} not within ${ms} ms; saw ${JSON.stringify(this.requests.map((r) => [r.path, r.answer]))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* keep the text */
    }
    const path = (req.url ?? '').split('?')[0];
    const query = (req.url ?? '').slice(path.length);
    if (req.method !== 'POST' || !/^\/api\/webhooks\/[0-9]+\/[A-Za-z0-9_-]+$/.test(path)) {
      this.requests.push({ at: Date.now(), path, query, body, answer: 405 });
      res.writeHead(405).end();
      return;
    }
    const next = this.script.shift() ?? (this.fault === 'hang' ? 'hang' : { status: this.fault ?? 204 });
    if (next === 'hang') {
      this.requests.push({ at: Date.now(), path, query, body, answer: 'hang' });
      this.hung.push(res);
      return;
    }
    if ('redirect' in next) {
      this.requests.push({ at: Date.now(), path, query, body, answer: 302 });
      res.writeHead(302, { location: next.redirect }).end();
      return;
    }
    this.requests.push({ at: Date.now(), path, query, body, answer: next.status });
    if (next.status === 204) {
      res.writeHead(204).end();
      return;
    }
    const answer =
      next.body ??
      (next.status === 429
        ? { message: 'You are being rate limited.', retry_after: next.retry_after ?? 1, global: false }
        : next.status === 404
          ? { message: 'Unknown Webhook', code: 10015 }
          : { message: 'Internal Server Error' });
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (next.status === 429) headers['retry-after'] = String(Math.ceil(next.retry_after ?? 1));
    res.writeHead(next.status, headers).end(JSON.stringify(answer));
  }
}
