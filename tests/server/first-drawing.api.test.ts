/**
 * The spectator page's first drawing (docs/client.md §9 "First drawing"), over real HTTP against the
 * real server and its built client (needs `npm run build`), on SQLite and (with TEST_DATABASE_URL)
 * PostgreSQL:
 * - /games/spectate/{id} of a game that is not PENDING carries the game drawn in its HTML (header,
 *   every square, pawns, the info text) before an empty #root, with the app's scripts in the
 *   after-first-paint template and only the boot entry as a script of its own; compressed when
 *   accepted;
 * - names users typed (event, clan, team, the team of the newest roll) come out escaped, never as markup;
 * - a missing, PENDING or malformed game id gets the usual page (loading shell, the app's script).
 */
import http from 'node:http';
import zlib from 'node:zlib';
import { describe, it, expect, beforeAll } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { act, castOf, connect, newGame, type Cast, type TestGame } from '../support/liveSocket';
import { autoSplit, countsToSettings } from '../../contract/game';

/** GET `url` with exactly `headers`; the body decoded by its Content-Encoding, and that encoding. */
function page(url: string, headers: Record<string, string> = {}): Promise<{ status: number; encoding: string | undefined; vary: string | undefined; html: string }> {
  return new Promise((resolve, reject) => {
    http.get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const plain = encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;
        resolve({ status: res.statusCode ?? 0, encoding, vary: res.headers.vary, html: plain.toString('utf8') });
      });
      res.on('error', reject);
    }).on('error', reject);
  });
}

const HOSTILE_EVENT = '<script>alert("e")</script> & \'co\'';
const HOSTILE_TEAM = '<img src=x onerror=alert(1)>';

/** The usual page: the static loading shell in #root and the app's own script, no drawing. */
function expectUsualPage(html: string, what: string): void {
  expect(html, what).toContain('<div id="root"><div class="shell boot-shell">');
  expect(html, what).not.toContain('data-first-drawing');
  expect(html, what).not.toContain('after-first-paint');
  expect(html, what).toMatch(/<script type="module" crossorigin src="\/assets\/index-[^"]+\.js"><\/script>/);
}

describe.each(backends())('the spectator page first drawing (%s)', (backend) => {
  const suite = useServerSuite(backend);
  let cast: Cast;
  let game: TestGame;

  beforeAll(async () => {
    cast = await castOf(suite.url, `draw-${backend}`);
    game = await newGame(cast);
    const events = `/api/clan/${cast.clanId}/events/${game.eventId}`;
    expect((await cast.owner.put(events, { name: HOSTILE_EVENT, start_datetime: '2031-06-01T18:00Z' })).status).toBe(200);
    expect((await cast.owner.put(`${events}/teams/${game.team1}`, { name: HOSTILE_TEAM, color: '#aa0000' })).status).toBe(200);
  });

  it('carries the game drawn in its HTML, the app started after the first paint, brotli or gzip when accepted', async () => {
    const plain = await page(`${suite.url}/games/spectate/${game.gameId}`);
    expect(plain.status).toBe(200);
    expect(plain.encoding).toBeUndefined();
    const { html } = plain;
    expect(html).toContain(`<div class="shell first-drawing" data-first-drawing="${game.gameId}">`);
    expect(html).toContain('<div id="root" class="app-behind" aria-hidden="true" inert></div>');
    expect(html).not.toContain('boot-shell');
    // Every square of the 225-square board with its number, its snakes, the two pawns, the info text.
    expect(html.match(/<g class="board__cell /g)).toHaveLength(225);
    expect(html.match(/<g class="board__snake">/g)?.length).toBeGreaterThan(0);
    for (let square = 1; square <= 225; square += 1) expect(html).toContain(`dominant-baseline="hanging">${square}</text>`);
    expect(html).toContain('>START</text>');
    expect(html).toContain('>FINISH</text>');
    expect(html.match(/<g class="board__pawn" transform="translate\(/g)).toHaveLength(2);
    expect(html).toContain('<span class="board-info__text" elementtiming="first-drawing">Click a square to see its task or challenge.</span>');
    expect(html).toContain('<span class="game-header__size">Board: 225 squares (15x15)</span>');
    expect(html).toContain('<p class="roll-strip__text">No roll yet.</p>');
    // Its buttons (zoom, sound) do nothing until the app takes over; no square is a button yet.
    const buttons = html.match(/<button\b[^>]*>/g) ?? [];
    expect(buttons).toHaveLength(3);
    for (const b of buttons) expect(b).toMatch(/ disabled(="")?>$/);
    expect(html).not.toContain('role="button"');
    // It is the app's board (BoardView, drawn by React's server renderer) without the attributes
    // the app's board is found by, so nothing finds the drawing in the app's place.
    expect(html).toContain('<figure class="board"><div class="board__zoom" role="group" aria-label="Board zoom">');
    expect(html).not.toMatch(/data-(square|team|position|testid)=/);
    // No inline style attribute (the page's CSP allows none).
    expect(html.slice(html.indexOf('data-first-drawing'), html.indexOf('<div id="root"'))).not.toMatch(/\sstyle=/);
    // The only script outside the template is the boot entry; the app's script waits in the template.
    const template = /<template id="after-first-paint">([\s\S]*?)<\/template>/.exec(html);
    expect(template).not.toBeNull();
    expect(template![1]).toMatch(/^<script type="module" crossorigin src="\/assets\/index-[^"]+\.js"><\/script>/);
    expect(template![1]).toContain(`<link rel="preload" as="fetch" crossorigin="use-credentials" href="/api/public/game/${game.gameId}">`);
    const outside = html.replace(template![0], '');
    expect([...outside.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([expect.stringMatching(/^<script type="module" crossorigin src="\/assets\/boot-[^"]+\.js">$/)]);
    expect(outside).not.toContain('modulepreload');

    for (const [accept, encoding] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip']] as const) {
      const r = await page(`${suite.url}/games/spectate/${game.gameId}`, { 'accept-encoding': accept });
      expect(r.encoding, accept).toBe(encoding);
      expect(r.vary, accept).toMatch(/Accept-Encoding/i);
      // The same page but for its per-answer CSP nonce.
      const nonce = /<meta name="csp-nonce" content="[^"]*" \/>/g;
      expect(r.html.replace(nonce, ''), accept).toBe(html.replace(nonce, ''));
    }
  });

  it('escapes the names users typed', async () => {
    const { html } = await page(`${suite.url}/games/spectate/${game.gameId}`);
    const drawing = html.slice(html.indexOf('data-first-drawing'), html.indexOf('<div id="root"'));
    expect(drawing).not.toContain('<script>alert');
    expect(drawing).not.toContain('<img');
    expect(drawing).not.toContain('onerror=alert(1)>');
    const event = '&lt;script&gt;alert(&quot;e&quot;)&lt;/script&gt; &amp; &#x27;co&#x27;';
    expect(drawing).toContain(`<h1 class="game-header__name">${event}</h1>`);
    expect(drawing).toContain(`<li class="breadcrumb__item" aria-current="page">${event}</li>`);
    expect(drawing).toContain(`aria-label="${event} board"`);
    expect(drawing).toContain('<title>&lt;img src=x onerror=alert(1)&gt;: square 1</title>');
    expect(drawing).toContain(`<p class="game-header__clan muted">Socket Clan draw-${backend}</p>`);

    // The roll strip names the team of the newest roll.
    const red = await connect(suite.url, 'red', cast.owner);
    try {
      await red.join(game.gameId);
      expect(await act(red, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    } finally {
      red.close();
    }
    const after = (await page(`${suite.url}/games/spectate/${game.gameId}`)).html;
    expect(after).toMatch(/<p class="roll-strip__text">&lt;img src=x onerror=alert\(1\)&gt; rolled a [1-6]<\/p>/);
    expect(after).not.toContain('<img');
  });

  it('a missing, PENDING or malformed game id gets the usual page', async () => {
    // An event whose game has no team yet: the game is PENDING.
    const ev = await cast.owner.post(`/api/clan/${cast.clanId}/events/`, { name: 'Pending Cup', start_datetime: '2031-06-01T18:00Z' });
    const pending = await cast.owner.post(`/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/`, {
      board_size: 25, num_snakes: 0, num_ladders: 0, max_reverts_allowed: 3, ...countsToSettings(autoSplit(25)),
    });
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    const pendingId = pending.body.game.id as number;
    expect((await cast.owner.get(`/api/clan/${cast.clanId}/events/${ev.body.event.id}/game/${pendingId}`)).body.game.status).toBe('PENDING');
    for (const p of [`/games/spectate/${pendingId}`, '/games/spectate/987654', '/games/spectate/0', '/games/spectate/abc', '/games/spectate/99999999999', '/games/spectate', '/']) {
      const r = await page(suite.url + p, { 'accept-encoding': 'br' });
      expect(r.status, p).toBe(200);
      expect(r.encoding, p).toBeUndefined();
      expectUsualPage(r.html, p);
    }
  });
});
