import { createServer } from 'node:http';
import { loadConfig } from '../server/config';
import { applyHeapGrowth } from '../server/lifecycle/gcPolicy';

/**
 * The baseline of bench/uploads.bench.ts: a plain node:http server receiving the same bytes as the
 * real one and doing nothing with them. A POST's body is read chunk by chunk and dropped, then
 * answered 204; any GET is answered a small JSON object (the others' calls). No parsing, no
 * decoding, no database. Prints 'bare listening on <port>'. Env: PORT.
 */
// The real server's garbage-collection policy (HEAP_GROWING_PERCENT), so the ratio compares the app, not the heap settings.
applyHeapGrowth(loadConfig().heapGrowingPercent);
const port = Number(process.env.PORT ?? 0);

const server = createServer((req, res) => {
  if (req.method === 'POST') {
    req.on('data', () => undefined);
    req.on('end', () => {
      res.writeHead(204);
      res.end();
    });
    return;
  }
  const body = JSON.stringify({ ok: true });
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`bare listening on ${typeof address === 'object' && address ? address.port : port}`);
});
