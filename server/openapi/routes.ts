import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import * as v from 'valibot';
import type { AppEnv } from '../http/context';
import { describe, input, valid } from '../http/route';
import { apiDocument } from './document';

/** GET /api/docs/{file}: the viewer's files (swagger-ui-dist) and its start-up script. */
const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'docs-init.js', 'favicon-32x32.png'] as const;

/** The folder of swagger-ui-dist: the viewer is served from this site (no CDN is reachable, and the CSP allows none). */
const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/**
 * The viewer's start-up script, served as a file (the CSP allows no inline script): Swagger UI
 * reading this site's document.
 */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n`;

/** The page of GET /api/docs: the viewer's style sheet and scripts, nothing inline. */
const DOCS_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Clan Snakes &amp; Ladders API</title>
    <link rel="stylesheet" href="/api/docs/swagger-ui.css" />
    <link rel="icon" type="image/png" href="/api/docs/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/api/docs/swagger-ui-bundle.js"></script>
    <script src="/api/docs/docs-init.js"></script>
  </body>
</html>
`;

const MEDIA_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
};

/** The bytes of a viewer file, read once. */
const assetCache = new Map<string, Buffer>();
function asset(file: (typeof DOCS_ASSETS)[number]): Buffer {
  let bytes = assetCache.get(file);
  if (!bytes) {
    bytes = file === 'docs-init.js' ? Buffer.from(INIT_SCRIPT) : fs.readFileSync(path.join(SWAGGER_DIR, file));
    assetCache.set(file, bytes);
  }
  return bytes;
}

/**
 * The API document and its page (docs/server.md §14), no sign-in:
 * - GET /openapi.json → the OpenAPI 3.1 document of `whole`, the app these routes are mounted in
 *   (server/openapi/document.ts: generated from its routes' own descriptions)
 * - GET /docs → an HTML page showing it with Swagger UI; the viewer is loaded by this page only
 * - GET /docs/{file} → the page's files (DOCS_ASSETS: swagger-ui-dist's style sheet, bundle and
 *   icon, and the start-up script), cached a day; 404 `{"error": "Not found."}` for any other name
 */
export function apiDocRoutes(whole: Hono<AppEnv>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get(
    '/openapi.json',
    describe({ tag: 'documentation', access: 'public', summary: 'This OpenAPI 3.1 document.', answer: { contentType: 'application/json', description: 'The OpenAPI document.', schema: { type: 'object' } } }),
    async (c) => c.json(await apiDocument(whole)),
  );
  app.get(
    '/docs',
    describe({ tag: 'documentation', access: 'public', summary: 'A page showing this document (Swagger UI).', answer: { contentType: 'text/html', description: 'The page.', schema: { type: 'string' } } }),
    (c) => {
      c.header('Cache-Control', 'no-cache');
      return c.html(DOCS_PAGE);
    },
  );
  app.get(
    '/docs/:file',
    describe({
      tag: 'documentation', access: 'public', summary: "The page's viewer files (Swagger UI, served from this site).",
      answer: { contentType: '*/*', description: 'The file (CSS, JavaScript or PNG).' },
    }),
    input('param', v.object({ file: v.picklist(DOCS_ASSETS, 'Not found.') }), { status: 404, about: { file: 'One of the viewer\'s files.' } }),
    (c) => {
      const { file } = valid(c, 'param');
      c.header('Content-Type', MEDIA_TYPES[path.extname(file)]);
      c.header('Cache-Control', 'public, max-age=86400');
      return c.body(new Uint8Array(asset(file)));
    },
  );
  return app;
}
