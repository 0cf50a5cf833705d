import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Db } from '../db/schema';
import { ApiError } from '../errors';
import type { Game, PublicGame, UserTeam } from '../../contract/gameApi';
import type { MembersGame } from '../../contract/socket';
import { loadGame, toPublicGame } from './service';

/**
 * Games kept at most when the caller gives no bound (least recently used first out); the server
 * passes config GAME_CACHE_GAMES. One entry holds a few copies of a 33-50 KB game, about 0.25 MB.
 */
const DEFAULT_MAX_GAMES = 1000;

/**
 * One game as built and serialised once for its version (docs/server.md
 * §6): both audiences' shapes as objects (read-only: they are shared by every answer) and
 * as JSON, and the public HTTP body with its ETag.
 */
export interface CachedGame {
  id: number;
  clanId: number;
  eventId: number;
  status: Game['status'];
  version: number;
  /** The members' shape without user_teams (they belong to one viewer). */
  members: MembersGame;
  /** The spectators' shape (docs/server.md §3). */
  public: PublicGame;
  /** JSON of `members` (an object: ends with '}'). */
  membersJson: string;
  /** `{"game": <public>}`, the body of GET /api/public/game/{id}. */
  publicBody: string;
  /** publicBody as UTF-8 bytes (encoded once, not per answer). */
  publicBytes: Uint8Array<ArrayBuffer>;
  /** Strong ETag of publicBody, also the base of the members' ETags. */
  etag: string;
  /** What the check SELECT compares: version, clan and event names, event type. */
  stamp: string;
  /** Date.now() when the last check that found the entry current was started (or the build). */
  checkedAt: number;
  /** publicBody compressed, built on first demand. */
  compressed: { br?: Buffer; gzip?: Buffer };
}

/** An encoding of a cached body: brotli, gzip, or none. */
export type BodyEncoding = 'br' | 'gzip' | null;

/** The encoding to answer with for an Accept-Encoding header (brotli first); null for identity. */
export function pickEncoding(acceptEncoding: string | undefined): BodyEncoding {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** The public body of `entry` in `encoding`, compressed once per version and kept with the entry. */
export function encodedBody(entry: CachedGame, encoding: BodyEncoding): Uint8Array<ArrayBuffer> | Buffer {
  if (encoding === 'br') {
    entry.compressed.br ??= brotliCompressSync(entry.publicBody, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } });
    return entry.compressed.br;
  }
  if (encoding === 'gzip') {
    entry.compressed.gzip ??= gzipSync(entry.publicBody);
    return entry.compressed.gzip;
  }
  return entry.publicBytes;
}

/** True when an If-None-Match header names `etag` (or is `*`). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** A short content hash for ETags. */
function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 16);
}

/**
 * The members' game for one viewer as JSON: the cached members JSON with `user_teams` appended
 * (the same fields as loadGame's members shape, user_teams last), and its ETag.
 */
export function membersAnswer(entry: CachedGame, userTeams: readonly UserTeam[]): { json: string; etag: string } {
  const teams = JSON.stringify(userTeams);
  const json = `${entry.membersJson.slice(0, -1)},"user_teams":${teams}}`;
  return { json, etag: `"${entry.etag.slice(1, -1)}-${hashOf(teams)}"` };
}

/** What the revalidation compares, from the game as loaded. */
function stampOf(version: number, clanName: string, eventName: string, eventType: string): string {
  return JSON.stringify([version, clanName, eventName, eventType]);
}

/** Builds an entry from the game as loadGame gives it (the builders stay the one source of the shapes). */
function entryOf(game: Game, startedAt: number): CachedGame {
  const { user_teams: _viewer, ...members } = game;
  const publicGame = toPublicGame(game);
  const publicJson = JSON.stringify(publicGame);
  const publicBody = `{"game":${publicJson}}`;
  return {
    id: game.id,
    clanId: game.clan_id,
    eventId: game.event_id,
    status: game.status,
    version: game.version,
    members,
    public: publicGame,
    membersJson: JSON.stringify(members),
    publicBody,
    publicBytes: new Uint8Array(Buffer.from(publicBody)),
    etag: `"g${game.id}v${game.version}-${hashOf(publicBody)}"`,
    stamp: stampOf(game.version, game.clan_name, game.event_name, game.event_type),
    checkedAt: startedAt,
    compressed: {},
  };
}

/**
 * The games served from memory (docs/server.md §14 "The game cache"): each game is loaded with
 * loadGame and serialised once per version, then shared by GET /api/public/game/{id}, the members'
 * GET .../game/{id}, join_game answers and full broadcasts. Bounded (least recently used out).
 *
 * Kept current:
 * - invalidate(gameId) is called after every committed change (RoomBroadcaster announces each
 *   one; the game routes after a delete), which also covers a team rename or recolour that does
 *   not bump the version; onInvalidate's listener forwards it to the other processes
 *   (realtime/socket.ts: the Redis adapter's serverSideEmit), which invalidate with `remote`;
 * - an entry last found current more than `checkMs` ago (config GAME_CACHE_CHECK_MS; 0: every
 *   read) is checked with one SELECT by primary key (version, clan and event names) that starts
 *   after the read was asked for, so a change that reached no hook (a clan or event rename, a
 *   write beside the server) is seen within checkMs; reads that arrive while a check runs share
 *   the next one, so a burst of reads costs a few SELECTs, not one each. A read of an entry past
 *   half of checkMs (peek) starts that check in the background, one per game at a time, while
 *   the entry is still answered: found current, the entry's time restarts from the check's start
 *   before it runs out, so under steady reads no read waits for a check. The bound holds as it
 *   was: an entry is answered only within checkMs of the start of a SELECT that found it current.
 * A build that raced with an invalidation is served to its callers but never stored.
 */
export class GameCache {
  /** The entries, at most maxGames (lru-cache: the least recently used goes first). */
  private readonly entries: LRUCache<number, CachedGame>;
  private readonly generations = new Map<number, number>();
  private readonly building = new Map<number, Promise<CachedGame | null>>();
  private readonly running = new Map<number, Promise<unknown>>();
  private readonly queued = new Map<number, Promise<CachedGame | null>>();
  private readonly listeners: ((gameId: number) => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly checkMs: number,
    maxGames = DEFAULT_MAX_GAMES,
  ) {
    this.entries = new LRUCache({ max: maxGames });
  }

  /** The game's current entry, or null when the game does not exist. Loads and serialises it on a miss. */
  async get(gameId: number): Promise<CachedGame | null> {
    const fresh = this.peek(gameId);
    if (fresh) return fresh;
    if (!this.entries.has(gameId)) return this.build(gameId);
    const queued = this.queued.get(gameId);
    if (queued) return queued;
    const running = this.running.get(gameId);
    if (!running) return this.check(gameId);
    const next = running.then(() => {
      this.queued.delete(gameId);
      return this.check(gameId);
    });
    this.queued.set(gameId, next);
    return next;
  }

  /**
   * The game's entry when get() would answer it from memory without a check (found current less
   * than checkMs ago), else null (then call get()). Past half of checkMs it also starts one
   * background check of the entry (none when one runs). Synchronous, for the public game route's fast path.
   */
  peek(gameId: number): CachedGame | null {
    const entry = this.entries.peek(gameId);
    if (!entry) return null;
    const age = Date.now() - entry.checkedAt;
    if (age >= this.checkMs) return null;
    // Past half its time, one check starts in the background while the entry is still served: when
    // it finds the entry current it restarts the entry's time before it runs out, so a busy game
    // never goes stale and its reads never wait (or fall through to the whole app). The bound is
    // untouched: the entry is still answered only within checkMs of a check's start.
    if (age >= this.checkMs / 2 && !this.running.has(gameId) && !this.queued.has(gameId)) this.check(gameId).catch(() => undefined);
    // Read from memory: the most recently used now.
    this.entries.get(gameId);
    return entry;
  }

  /**
   * Drops the game's entry and any build under way; listeners hear of it unless `remote` (the
   * invalidation came from another process).
   */
  invalidate(gameId: number, remote = false): void {
    this.generations.set(gameId, (this.generations.get(gameId) ?? 0) + 1);
    this.entries.delete(gameId);
    this.building.delete(gameId);
    if (!remote) for (const listener of this.listeners) listener(gameId);
  }

  /** Calls `listener` with the game id of every local invalidation (to forward it to other processes). */
  onInvalidate(listener: (gameId: number) => void): void {
    this.listeners.push(listener);
  }

  /** One SELECT of the stamp columns, started now; the cached entry when they match, else a fresh build. */
  private check(gameId: number): Promise<CachedGame | null> {
    const generation = this.generations.get(gameId) ?? 0;
    const startedAt = Date.now();
    const promise = this.db
      .selectFrom('games')
      .innerJoin('clans', 'clans.id', 'games.clan_id')
      .innerJoin('events', 'events.id', 'games.event_id')
      .select(['games.version', 'clans.name as clan_name', 'events.name as event_name', 'events.type as event_type'])
      .where('games.id', '=', gameId)
      .executeTakeFirst()
      .then((row) => {
        const entry = this.entries.peek(gameId);
        if (row && entry && (this.generations.get(gameId) ?? 0) === generation && stampOf(row.version, row.clan_name, row.event_name, row.event_type) === entry.stamp) {
          entry.checkedAt = startedAt;
          // Found current: the most recently used now.
          this.entries.get(gameId);
          return entry;
        }
        if (entry && (this.generations.get(gameId) ?? 0) === generation) this.invalidate(gameId, true);
        return row ? this.build(gameId) : null;
      });
    const settled = promise.then(
      () => undefined,
      () => undefined,
    );
    this.running.set(gameId, settled);
    void settled.then(() => {
      if (this.running.get(gameId) === settled) this.running.delete(gameId);
    });
    return promise;
  }

  /** Loads, serialises and (unless invalidated meanwhile) stores the game; one build per game at a time. */
  private build(gameId: number): Promise<CachedGame | null> {
    const pending = this.building.get(gameId);
    if (pending) return pending;
    const generation = this.generations.get(gameId) ?? 0;
    const startedAt = Date.now();
    const promise: Promise<CachedGame | null> = loadGame(this.db, gameId, null).then(
      (game) => {
        const entry = entryOf(game, startedAt);
        if (this.building.get(gameId) === promise) this.building.delete(gameId);
        if ((this.generations.get(gameId) ?? 0) === generation) this.entries.set(gameId, entry);
        return entry;
      },
      (err: unknown) => {
        if (this.building.get(gameId) === promise) this.building.delete(gameId);
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      },
    );
    this.building.set(gameId, promise);
    return promise;
  }
}
