import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What every local stand-in for an outside API shares (Discord's OAuth2, Wise Old Man): an HTTP
 * server on a free port of 127.0.0.1 (`url` once started), JSON answers, and an outage the test
 * turns on: `fault` 500 answers every affected request with `faultBody`, 'hang' never answers
 * (the requests are cut by `heal()` or `stop()`). A stand-in answers in `handle`.
 */
export abstract class StandInServer {
  url = '';
  /** An outage: 500 to every affected request, or 'hang' (never answer); null answers normally. */
  fault: 500 | 'hang' | null = null;
  private hung: http.ServerResponse[] = [];
  private server = http.createServer((req, res) => void this.handle(req, res));

  /** Answers one request. */
  protected abstract handle(req: http.IncomingMessage, res: http.ServerResponse): void | Promise<void>;

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

  /** Answers `body` as JSON with `status`. */
  protected json(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  /** During an outage, answers `res` as the fault says (500 with `faultBody`, or keeps it hanging) and returns true; else false. */
  protected answerFault(res: http.ServerResponse, faultBody: unknown): boolean {
    if (this.fault === null) return false;
    if (this.fault === 'hang') this.hung.push(res);
    else this.json(res, 500, faultBody);
    return true;
  }
}
