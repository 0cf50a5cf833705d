import crypto from 'node:crypto';
import type http from 'node:http';
import { StandInServer } from './standIn';

/**
 * Discord's side of the slash commands (docs/server.md §19 "Slash commands") for tests: a signer
 * of interactions with a test Ed25519 key pair (the server under test gets its public key as
 * DISCORD_PUBLIC_KEY), and a stand-in of the command registration endpoint that
 * `npm run discord:commands` calls.
 */

/** The site's public origin the slash-command suites give the server (PUBLIC_ORIGIN): link answers name it. */
export const LINK_ORIGIN = 'https://snakes.example.org';

/** Discord's message flag for an answer only its asker sees (EPHEMERAL, 1 << 6). */
export const EPHEMERAL = 64;

let guildSerial = 0;
/** A guild id (snowflake-like, 18 digits) of its own per call. */
export const newGuild = () => `9${String(Date.now()).slice(-8)}${String(++guildSerial).padStart(9, '0')}`;

/** The 22-character code of a `/snl link` answer's URL under LINK_ORIGIN; throws when there is none. */
export function linkCodeOf(content: string): string {
  const m = new RegExp(`${LINK_ORIGIN.replace(/\./g, '\\.')}/discord/link/([A-Za-z0-9_-]{22})\\b`).exec(content);
  if (!m) throw new Error(`no link code in ${content}`);
  return m[1];
}

/** The Discord id a development sign-in gives `username` (server/auth/routes.ts POST /auth/dev). */
export function devDiscordId(username: string): string {
  return 'dev-' + crypto.createHash('sha256').update(username).digest('hex').slice(0, 16);
}

/** What a signed post may change: the timestamp (Unix seconds as text), the signature, or none of the headers. */
export interface SignOptions {
  timestamp?: string;
  signature?: string | null;
}

/** An interaction as Discord sends it: type 1 PING or 2 APPLICATION_COMMAND `/snl <sub>` from a guild member. */
export function snlCommand(sub: 'link' | 'status' | 'roll', guildId: string, userId: string, options: { name: string; type: number; value: unknown }[] = []) {
  return {
    id: String(BigInt(Date.now()) << 22n),
    application_id: '1234567890123456789',
    type: 2,
    token: 'interaction-token',
    version: 1,
    guild_id: guildId,
    channel_id: '1100000000000000001',
    member: { user: { id: userId, username: 'someone', discriminator: '0', global_name: null, avatar: null }, roles: [], permissions: '0' },
    data: { id: '1200000000000000001', name: 'snl', type: 1, options: [{ type: 1, name: sub, options }] },
  };
}

/**
 * A test Ed25519 key pair signing interactions as Discord does: X-Signature-Ed25519 is the hex
 * signature of X-Signature-Timestamp followed by the raw body.
 */
export class InteractionSigner {
  private readonly keys = crypto.generateKeyPairSync('ed25519');

  /** The public key as Discord shows it (64 hex digits), for DISCORD_PUBLIC_KEY. */
  readonly publicKeyHex = Buffer.from(this.keys.publicKey.export({ format: 'jwk' }).x as string, 'base64url').toString('hex');

  /** The signature headers of `body` at `timestamp` (default now). */
  headers(body: string, timestamp = String(Math.floor(Date.now() / 1000))): Record<string, string> {
    const signature = crypto.sign(null, Buffer.concat([Buffer.from(timestamp), Buffer.from(body)]), this.keys.privateKey).toString('hex');
    return { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp };
  }

  /** POSTs `payload` (JSON) to `{base}/api/discord/interactions`, signed unless `opts` says otherwise; the status and parsed body. */
  async post(base: string, payload: unknown, opts: SignOptions = {}): Promise<{ status: number; body: any }> {
    const body = JSON.stringify(payload);
    const signed = this.headers(body, opts.timestamp);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Discord-Interactions/1.0 (+https://discord.com)' };
    if (opts.signature !== null) {
      headers['x-signature-timestamp'] = signed['x-signature-timestamp'];
      headers['x-signature-ed25519'] = opts.signature ?? signed['x-signature-ed25519'];
    }
    const res = await fetch(`${base}/api/discord/interactions`, { method: 'POST', headers, body });
    const text = await res.text();
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  }
}

/** One registration the stand-in received. */
export interface CommandRegistration {
  method: string;
  path: string;
  authorization: string | null;
  body: unknown;
}

/** One edit of an interaction's original response the stand-in received: the path's application id and token, and the body. */
export interface OriginalEdit {
  applicationId: string;
  token: string;
  body: any;
}

/**
 * A stand-in of Discord's API for the slash commands:
 * - `PUT /applications/{id}/commands`: records each request and answers 200 with the commands it
 *   was sent, each given an id and the application id, as Discord does
 * - `PATCH /webhooks/{application id}/{interaction token}/messages/@original` (a deferred answer's
 *   edit): recorded in `edits` (nextEdit waits for one) and answered 200 with the message
 * Other paths answer 404 `{"message": "404: Not Found", "code": 0}`.
 */
export class DiscordCommandsStandIn extends StandInServer {
  registrations: CommandRegistration[] = [];
  edits: OriginalEdit[] = [];
  private editWaiters: (() => void)[] = [];

  /** Resolves with the `n`th edit (1-based) once it has arrived. */
  async nextEdit(n = this.edits.length + 1): Promise<OriginalEdit> {
    while (this.edits.length < n) await new Promise<void>((resolve) => this.editWaiters.push(resolve));
    return this.edits[n - 1];
  }

  protected async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* kept as text */
    }
    const url = new URL(req.url ?? '/', this.url);
    const edit = /^\/webhooks\/([0-9]+)\/([^/]+)\/messages\/@original$/.exec(url.pathname);
    if (req.method === 'PATCH' && edit) {
      this.edits.push({ applicationId: edit[1], token: decodeURIComponent(edit[2]), body });
      for (const wake of this.editWaiters.splice(0)) wake();
      return this.json(res, 200, { id: '1400000000000000001', type: 0, ...(body as object) });
    }
    this.registrations.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization ?? null, body });
    const m = /^\/applications\/([0-9]+)\/commands$/.exec(url.pathname);
    if (req.method !== 'PUT' || !m) return this.json(res, 404, { message: '404: Not Found', code: 0 });
    if (req.headers.authorization !== 'Bot test-bot-token') return this.json(res, 401, { message: '401: Unauthorized', code: 0 });
    const commands = Array.isArray(body) ? body : [];
    this.json(res, 200, commands.map((c, i) => ({ id: String(1300000000000000000n + BigInt(i)), application_id: m[1], version: '1', ...(c as object) })));
  }
}
