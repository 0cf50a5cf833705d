/**
 * The board as a picture and link previews (docs/server.md §19), over real HTTP, real sockets and a
 * local Discord stand-in, on SQLite and (with TEST_DATABASE_URL) PostgreSQL:
 * - GET /api/public/game/{id}/board.png: a PNG `width` pixels square (200..1600, default 800; any
 *   other width 400), 404 for a missing game, ETag and 304, `Cache-Control: public, max-age=5`; a
 *   roll changes the ETag and the picture; requests for one version and width at once are drawn
 *   once (board_pictures_rendered_total of GET /metrics);
 * - the spectator page carries og:title, og:description, og:image (absolute, PUBLIC_ORIGIN, ?v=
 *   the version), og:url and twitter:card with users' texts escaped; a missing game's page none;
 * - with PUBLIC_ORIGIN, a roll's announcement carries the board picture as its last embed's image,
 *   and a result's too (nextMessage).
 * The page is served from a client folder holding only an index.html (no build needed): the tags
 * go in its <head> whether or not the page carries the first drawing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../support/server';
import { useServerSuite } from '../support/suite';
import { act, castOf, connect, newGame, type Cast, type TestGame, type Watcher } from '../support/liveSocket';
import { DiscordWebhookStandIn } from '../support/discordWebhookStandIn';
import { nextMessage } from '../../server/discord/embeds';

const ORIGIN = 'https://snakes.example.org';
const WIDTH_ERROR = 'Width must be a whole number of pixels from 200 to 1600.';
const HOSTILE_EVENT = `Winter "Ladder" <b>&</b> 'co' $& $'`;
const HOSTILE_TEAM = '<img src=x onerror=alert(1)>';

/** A PNG's width and height from its IHDR chunk (bytes 16-23), after checking the 8-byte signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** `text` as an HTML attribute value (the escaping of the first drawing: & < > " '). */
const attr = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** A client folder with an index.html only, so the page is answered without a build. */
const clientDir = fs.mkdtempSync(path.join(os.tmpdir(), 'csl-preview-'));
fs.writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html>\n<html lang="en">\n  <head>\n    <title>Clan Snakes &amp; Ladders</title>\n  </head>\n  <body><div id="root"><div class="shell boot-shell"></div></div></body>\n</html>\n');

describe('announcement embeds carry the board picture (nextMessage)', () => {
  const team = { name: 'Red', color: '#aa0000' };
  const at = (id: number, announcement: Parameters<typeof nextMessage>[0][number]['announcement']) => ({ id, created_at: '2031-01-01T00:00:00.000Z', announcement });
  it("a result's embed and a roll message's last embed, the newest roll's version; none without PUBLIC_ORIGIN or a board", () => {
    const result = at(1, { kind: 'result', event_name: 'E', winner: team, standings: [], board: { game_id: 7, version: 40 } });
    expect(nextMessage([result], 10_000, ORIGIN).message.embeds.at(-1)?.image).toEqual({ url: `${ORIGIN}/api/public/game/7/board.png?v=40` });
    expect(nextMessage([result], 10_000, null).message.embeds.at(-1)?.image).toBeUndefined();
    const roll = (id: number, name: string, version?: number) =>
      at(id, { kind: 'roll', team: { name, color: '#00aa00' }, die: 3, from: 1, landing: 4, to: 4, via: null, ...(version ? { board: { game_id: 7, version } } : {}) });
    const { embeds } = nextMessage([roll(1, 'A', 5), roll(2, 'B', 6), roll(3, 'A', 7)], 10_000, ORIGIN).message;
    expect(embeds.map((e) => e.title)).toEqual(['A', 'B']);
    expect(embeds[0].image).toBeUndefined();
    expect(embeds[1].image).toEqual({ url: `${ORIGIN}/api/public/game/7/board.png?v=7` });
    expect(nextMessage([roll(1, 'A')], 10_000, ORIGIN).message.embeds[0].image).toBeUndefined();
  });
});

describe.each(backends())('the board as a picture and link previews (%s)', (backend) => {
  const stand = new DiscordWebhookStandIn();
  let suite: ReturnType<typeof useServerSuite>;
  beforeAll(async () => {
    await stand.start();
  });
  suite = useServerSuite(backend, {
    // The stand-in's env is read when the server starts (after the stand-in's beforeAll above).
    get DISCORD_WEBHOOK_ORIGIN() {
      return stand.url;
    },
    DISCORD_POLL_MS: '100',
    DISCORD_ROLL_WINDOW_MS: '200',
    PUBLIC_ORIGIN: ORIGIN,
    CLIENT_DIR: clientDir,
  } as Record<string, string>);
  let cast: Cast;
  let game: TestGame;
  let leader: Watcher;
  const picture = (query = '', headers: Record<string, string> = {}) => fetch(`${suite.url}/api/public/game/${game.gameId}/board.png${query}`, { headers });
  const bytesOf = async (r: Response) => Buffer.from(await r.arrayBuffer());
  const version = async () => ((await (await fetch(`${suite.url}/api/public/game/${game.gameId}`)).json()) as { game: { version: number } }).game.version;
  const rendered = async () => Number(/^board_pictures_rendered_total (\d+)/m.exec(await (await fetch(`${suite.url}/metrics`)).text())?.[1]);

  beforeAll(async () => {
    cast = await castOf(suite.url, `picture-${backend}`);
    game = await newGame(cast, { start: false });
    const events = `/api/clan/${cast.clanId}/events/${game.eventId}`;
    expect((await cast.owner.put(events, { name: HOSTILE_EVENT, start_datetime: '2031-06-01T18:00Z' })).status).toBe(200);
    expect((await cast.owner.put(`${events}/teams/${game.team1}`, { name: HOSTILE_TEAM, color: '#aa0000' })).status).toBe(200);
    expect((await cast.owner.put(`${events}/discord`, { webhook_url: stand.webhook('4242'), announce: { status: false } })).status).toBe(200);
    expect((await cast.owner.put(`${game.path}/status`, { status: 'in-progress' })).status).toBe(200);
    leader = await connect(suite.url, 'leader', cast.owner);
    await leader.join(game.gameId);
  });
  afterAll(async () => {
    leader?.close();
    await stand.stop();
  });

  it('answers a PNG 800 px square by default, any width from 200 to 1600, with its ETag (304 when matched) and Cache-Control', async () => {
    const r = await picture();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('cache-control')).toBe('public, max-age=5');
    const etag = r.headers.get('etag')!;
    expect(etag).toMatch(new RegExp(`^"g${game.gameId}v${await version()}-[^"]+-w800"$`));
    expect(pngSize(await bytesOf(r))).toEqual({ width: 800, height: 800 });
    for (const width of [200, 1600]) {
      const sized = await picture(`?width=${width}`);
      expect(sized.status).toBe(200);
      expect(pngSize(await bytesOf(sized))).toEqual({ width, height: width });
      expect(sized.headers.get('etag')).toBe(etag.replace('-w800"', `-w${width}"`));
    }
    const again = await picture('', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('public, max-age=5');
    expect((await bytesOf(again)).byteLength).toBe(0);
    expect((await picture('', { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('refuses any other width with 400, a missing game with 404, a malformed id with 400', async () => {
    for (const bad of ['199', '1601', '0', '-800', '800.5', '8e2', 'abc', '', '0x320', '99999999']) {
      const r = await picture(`?width=${encodeURIComponent(bad)}`);
      expect({ bad, status: r.status, body: await r.json() }).toEqual({ bad, status: 400, body: { error: WIDTH_ERROR } });
    }
    const missing = await fetch(`${suite.url}/api/public/game/999999/board.png`);
    expect({ status: missing.status, body: await missing.json() }).toEqual({ status: 404, body: { error: 'Game not found.' } });
    expect((await fetch(`${suite.url}/api/public/game/abc/board.png`)).status).toBe(400);
  });

  it('draws one version and width once, however many ask at the same time', async () => {
    const before = await rendered();
    const answers = await Promise.all(Array.from({ length: 6 }, () => picture('?width=333')));
    const bodies = await Promise.all(answers.map(bytesOf));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const b of bodies) expect(b.equals(bodies[0])).toBe(true);
    expect(pngSize(bodies[0]).width).toBe(333);
    expect(await rendered()).toBe(before + 1);
    // Asked again later: from memory.
    await picture('?width=333');
    expect(await rendered()).toBe(before + 1);
  });

  it('a roll changes the ETag and the picture; the roll announcement carries the picture of its version as its last embed image', async () => {
    const first = await picture();
    const firstBytes = await bytesOf(first);
    expect(await act(leader, 'roll_dice', game, game.team1, cast.ign.ownerA)).toBeNull();
    const rolled = await version();
    const after = await picture();
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(after.headers.get('etag')).toContain(`v${rolled}-`);
    expect((await bytesOf(after)).equals(firstBytes)).toBe(false);
    // The old ETag no longer matches.
    expect((await picture('', { 'If-None-Match': first.headers.get('etag')! })).status).toBe(200);

    await stand.until(() => stand.accepted('4242').some((p) => p.body.embeds.some((e: { description?: string }) => e.description?.includes('Rolled a'))), 10_000, 'the roll announcement');
    const message = stand.accepted('4242').find((p) => p.body.embeds.some((e: { description?: string }) => e.description?.includes('Rolled a')))!.body;
    expect(message.embeds.at(-1).image).toEqual({ url: `${ORIGIN}/api/public/game/${game.gameId}/board.png?v=${rolled}` });
  });

  it('the spectator page carries the link preview tags with the exact texts, escaped; a missing game the page without them', async () => {
    const html = await (await fetch(`${suite.url}/games/spectate/${game.gameId}`)).text();
    const { game: g } = (await (await fetch(`${suite.url}/api/public/game/${game.gameId}`)).json()) as {
      game: { version: number; status: string; team_states: { team_name: string; current_position: number }[] };
    };
    const red = g.team_states.find((t) => t.team_name === HOSTILE_TEAM)!.current_position;
    expect(red).toBeGreaterThan(1);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain(`<meta property="og:title" content="${attr(`${HOSTILE_EVENT}: live snakes and ladders`)}">`);
    expect(head).toContain(`<meta property="og:description" content="${attr(`${HOSTILE_TEAM} on ${red} · Blue Team on 1 · in-progress`)}">`);
    expect(head).toContain(`<meta property="og:image" content="${ORIGIN}/api/public/game/${game.gameId}/board.png?v=${g.version}">`);
    expect(head).toContain(`<meta property="og:url" content="${ORIGIN}/games/spectate/${game.gameId}">`);
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).not.toContain(HOSTILE_TEAM);
    expect(html).not.toContain('<b>&</b>');

    for (const other of ['/games/spectate/999999', '/games/spectate', '/dashboard']) {
      const page = await fetch(`${suite.url}${other}`);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text, other).toContain('<div id="root">');
      expect(text, other).not.toContain('og:');
      expect(text, other).not.toContain('twitter:card');
    }
  });
});
