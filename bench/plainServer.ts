import fs from 'node:fs';
import { createServer } from 'node:http';
import { listenForBench } from './listen';

/**
 * The plainest baseline of the public game over HTTP (bench/spectators.bench.ts): node:http with
 * nothing attached (no Socket.IO, no logging, no metrics, no garbage-collection settings), answering
 * every request with the public game's body (BARE_SAMPLES `httpBody`) and the real answer's headers
 * (`httpHeaders`: the security headers, ETag, Vary, Cache-Control, Content-Type) plus
 * Content-Length, written as one raw header list in one writeHead and one end, node's fast path.
 * The real server's answer differs only in Date and X-Request-Id. Prints 'plain listening on
 * <port>' once ready. Env: PORT, BARE_SAMPLES.
 */
const port = Number(process.env.PORT ?? 0);
const samples = JSON.parse(fs.readFileSync(process.env.BARE_SAMPLES ?? '', 'utf8')) as { httpBody: string; httpHeaders: Record<string, string> };
const body = Buffer.from(samples.httpBody);
const headers = [...Object.entries(samples.httpHeaders).flat(), 'Content-Length', String(body.length)];

const http = createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});

listenForBench(http, 'plain', port);
