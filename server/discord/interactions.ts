import crypto from 'node:crypto';
import {
  ApplicationCommandOptionType,
  InteractionResponseType,
  InteractionType,
  MessageFlags,
  type APIApplicationCommandInteractionDataOption,
  type APIEmbed,
  type APIInteraction,
  type APIInteractionResponse,
} from 'discord-api-types/v10';
import type { Deps } from '../http/context';
import type { Db } from '../db/schema';
import { ActionRefused, precheckUserAction } from '../games/play';
import { log } from '../observability/log';
import { discordLinkPath, SNL_TEXTS } from '../../contract/discordLink';
import { clanOfGuild, createLinkCode } from './guilds';
import type { GuildCommandLimit } from './commandLimit';

/**
 * Discord's HTTP interactions (docs/server.md §19 "Slash commands"): the request signature and the
 * `/snl` command (link, status, roll). Payload types from discord-api-types.
 */

/** How far a signature's timestamp may be from now: 5 minutes, in seconds. */
const TIMESTAMP_SKEW_S = 5 * 60;

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo; the 32-byte raw key follows it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** The KeyObject of a 32-byte Ed25519 public key given as 64 hex digits; null for anything else. */
export function publicKeyFromHex(hex: string): crypto.KeyObject | null {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) return null;
  try {
    return crypto.createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

/**
 * True when `signatureHex` (X-Signature-Ed25519) is `key`'s Ed25519 signature of `timestamp`
 * (X-Signature-Timestamp, Unix seconds) followed by the raw body, and the timestamp is within 5
 * minutes of `nowMs`. Anything missing or malformed is false.
 */
export function verifyInteraction(key: crypto.KeyObject, signatureHex: string | undefined, timestamp: string | undefined, rawBody: Uint8Array, nowMs = Date.now()): boolean {
  if (!signatureHex || !timestamp || !/^[0-9a-fA-F]{128}$/.test(signatureHex) || !/^[0-9]{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > TIMESTAMP_SKEW_S) return false;
  try {
    return crypto.verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), rawBody]), key, Buffer.from(signatureHex, 'hex'));
  } catch {
    return false;
  }
}

/** What answering a command needs besides the app's dependencies. */
export interface CommandContext {
  deps: Deps;
  /** The site's origin (PUBLIC_ORIGIN, else the request's), for links and the sign-in text. */
  origin: string;
  limit: GuildCommandLimit;
  /** performance.now() when the interaction arrived (the roll's metric). */
  arrivedAt: number;
  /**
   * The wall clock when it arrived (ms since 1970): the guild limit counts commands by arrival, so
   * checking the signature of a burst on a busy process does not spread it over more seconds.
   */
  arrivedAtMs: number;
}

/** How long the edit of a deferred answer may take: 5 s, as every request to Discord (docs/server.md §10). */
const FOLLOW_UP_TIMEOUT_MS = 5000;

/** What the edit of a deferred answer came to: sent, or why not. */
type FollowUpOutcome = { ok: true } | { ok: false; error: string };

/**
 * Sends a deferred command's real answer (docs/server.md §19 "Slash commands"): `answer`'s message
 * (content and embeds; its flags cannot change after the deferral) as the edit of the interaction's
 * original response, `PATCH {DISCORD_API_URL}/webhooks/{application_id}/{token}/messages/@original`
 * (the interaction's token is the credential), with `allowed_mentions: {parse: []}` so no text in
 * it pings. One try, aborted after 5 s; a failure is logged. Never throws.
 */
async function editOriginalResponse(apiUrl: string, interaction: { application_id: string; token: string }, answer: APIInteractionResponse): Promise<FollowUpOutcome> {
  const data = 'data' in answer && answer.data && typeof answer.data === 'object' ? (answer.data as { content?: string; embeds?: APIEmbed[] }) : {};
  const body = { content: data.content ?? '', embeds: data.embeds ?? [], allowed_mentions: { parse: [] } };
  const url = `${apiUrl}/webhooks/${encodeURIComponent(interaction.application_id)}/${encodeURIComponent(interaction.token)}/messages/@original`;
  try {
    const res = await fetch(url, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'user-agent': 'ClanSnakesAndLadders (interactions, 1.0)' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(FOLLOW_UP_TIMEOUT_MS),
    });
    await res.body?.cancel();
    if (res.ok) return { ok: true };
    log.warn({ status: res.status }, '[discord] the edit of a deferred command answer was refused');
    return { ok: false, error: `Discord answered ${res.status}` };
  } catch (err) {
    log.warn({ err }, '[discord] the edit of a deferred command answer failed');
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/** The text of a deferred command that failed after its deferral: the caller learns it did not go through. */
const DEFERRED_FAILURE = 'Something went wrong: try again.';

/**
 * Answers `interaction` within Discord's 3 s (docs/server.md §19 "Slash commands"): answerInteraction's
 * answer when it is ready within `deferMs` (DISCORD_DEFER_MS, default 2 s); otherwise `{type: 5}`
 * (DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: Discord shows that the app is thinking), and the answer,
 * once ready, is sent as the edit of that response (editOriginalResponse; a command that failed
 * meanwhile sends DEFERRED_FAILURE). A command that fails before
 * the deferral throws as before.
 */
export async function answerInTime(ctx: CommandContext, interaction: APIInteraction, deferMs: number): Promise<APIInteractionResponse> {
  const answering = answerInteraction(ctx, interaction);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deferMs);
  });
  try {
    const first = await Promise.race([answering, late]);
    if (first) return first;
  } finally {
    clearTimeout(timer);
  }
  const apiUrl = ctx.deps.config.discordApp.apiUrl;
  void answering
    .catch((err: unknown): APIInteractionResponse => {
      log.error({ err }, '[discord] a deferred command failed');
      return reply({ content: DEFERRED_FAILURE });
    })
    .then((answer) => editOriginalResponse(apiUrl, interaction, answer));
  return { type: InteractionResponseType.DeferredChannelMessageWithSource };
}

/** A message answer; `ephemeral` sets flags 64 (only the caller sees it). */
function reply(data: { content?: string; embeds?: APIEmbed[] }, ephemeral = false): APIInteractionResponse {
  return { type: InteractionResponseType.ChannelMessageWithSource, data: { ...data, ...(ephemeral ? { flags: MessageFlags.Ephemeral } : {}) } };
}

/** A refusal: the text, seen by the caller only (docs/server.md §19: every refusal has flags 64). */
const refuse = (content: string) => reply({ content }, true);

/**
 * Answers one verified interaction (docs/server.md §19): PING → PONG; the `snl` command's
 * subcommands; anything else 'Unknown command.' (flags 64). Commands count against the guild's
 * limit first ('Slow down: too many commands.'); a command outside a guild is refused.
 */
async function answerInteraction(ctx: CommandContext, interaction: APIInteraction): Promise<APIInteractionResponse> {
  if (interaction.type === InteractionType.Ping) return { type: InteractionResponseType.Pong };
  if (interaction.type !== InteractionType.ApplicationCommand || interaction.data.name !== 'snl' || !('options' in interaction.data)) {
    return refuse(SNL_TEXTS.unknownCommand);
  }
  const guildId = interaction.guild_id;
  const discordUserId = interaction.member?.user.id ?? interaction.user?.id;
  if (!guildId || !discordUserId) return refuse(SNL_TEXTS.guildOnly);
  if (!(await ctx.limit.take(guildId, ctx.arrivedAtMs))) return refuse(SNL_TEXTS.slowDown);
  const sub = (interaction.data.options ?? []).find((o) => o.type === ApplicationCommandOptionType.Subcommand);
  if (!sub || sub.type !== ApplicationCommandOptionType.Subcommand) return refuse(SNL_TEXTS.unknownCommand);
  switch (sub.name) {
    case 'link':
      return linkCommand(ctx, guildId);
    case 'status':
      return statusCommand(ctx, guildId);
    case 'roll':
      return rollCommand(ctx, guildId, discordUserId, gameOption(sub.options ?? []));
    default:
      return refuse(SNL_TEXTS.unknownCommand);
  }
}

/** The integer option `game` of `/snl roll`, or null when not given. */
function gameOption(options: APIApplicationCommandInteractionDataOption[]): number | null {
  const o = options.find((x) => x.name === 'game');
  return o && o.type === ApplicationCommandOptionType.Integer && typeof o.value === 'number' && Number.isSafeInteger(o.value) ? o.value : null;
}

/** `/snl link`: a one-time URL `<origin>/discord/link/{code}` (15 minutes), to the caller only. */
async function linkCommand(ctx: CommandContext, guildId: string): Promise<APIInteractionResponse> {
  const code = await createLinkCode(ctx.deps.db, guildId);
  return reply({ content: SNL_TEXTS.link(`${ctx.origin}${discordLinkPath(code)}`) }, true);
}

/** The live games of a clan (in progress or paused), oldest first, at most `limit`. */
async function liveGames(db: Db, clanId: number, limit: number) {
  return db.selectFrom('games').innerJoin('events', 'events.id', 'games.event_id')
    .select(['games.id', 'games.status', 'games.version', 'events.name as event_name'])
    .where('events.clan_id', '=', clanId)
    .where('games.status', 'in', ['in-progress', 'paused'])
    .orderBy('games.id')
    .limit(limit)
    .execute();
}

/** Discord's limits of an embed description (4,096), kept under. */
const MAX_DESCRIPTION = 4000;

/**
 * `/snl status`: the linked clan's live games (at most 5), an embed each: the event name as title,
 * the status and each team's square and task state (by square, then name), the board picture
 * (board.png with `?v={version}`) as its image with PUBLIC_ORIGIN; 'No live games in {clan}.'
 * without any; not linked: the refusal.
 */
async function statusCommand(ctx: CommandContext, guildId: string): Promise<APIInteractionResponse> {
  const { db, config } = ctx.deps;
  const clan = await clanOfGuild(db, guildId);
  if (!clan) return refuse(SNL_TEXTS.notLinked);
  const games = await liveGames(db, clan.id, 5);
  if (games.length === 0) return reply({ content: SNL_TEXTS.noLiveGames(clan.name) });
  const teams = await db.selectFrom('team_states').innerJoin('teams', 'teams.id', 'team_states.team_id')
    .select(['team_states.game_id', 'teams.name', 'teams.color', 'team_states.current_position', 'team_states.task_state'])
    .where('team_states.game_id', 'in', games.map((g) => g.id))
    .orderBy('team_states.current_position', 'desc').orderBy('teams.name')
    .execute();
  const embeds = games.map((g): APIEmbed => {
    const lines = [`Status: ${g.status}`, ...teams.filter((t) => t.game_id === g.id).map((t) => `${markdownSafe(t.name)}: square ${t.current_position}, task ${t.task_state}`)];
    let description = lines.join('\n');
    if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`;
    const embed: APIEmbed = { title: g.event_name.slice(0, 256), description, color: 0x5865f2 };
    if (config.publicOrigin) embed.image = { url: `${config.publicOrigin}/api/public/game/${g.id}/board.png?v=${g.version}` };
    return embed;
  });
  return reply({ embeds });
}

/** A team name shown as text: Discord's inline markdown characters escaped. */
function markdownSafe(text: string): string {
  return text.replace(/([\\*_~`|[\]()<>#-])/g, '\\$1');
}

/**
 * `/snl roll` (docs/server.md §19): the caller is the site user whose Discord id is the
 * interaction's user ('Sign in on {origin} with Discord first.' otherwise); the team they lead in a
 * live game of the linked clan ('Only the team's Leader can roll.' when none; `game` picks among
 * several games, and is needed only then); then the socket's roll_dice exactly (Deps.moves.roll:
 * the same precheck, queue, rules, refusal texts, log, broadcasts and announcements). Answers the
 * roll's log text (its entries, one a line) for all to see; a refusal to the caller only.
 */
async function rollCommand(ctx: CommandContext, guildId: string, discordUserId: string, game: number | null): Promise<APIInteractionResponse> {
  const { db } = ctx.deps;
  const clan = await clanOfGuild(db, guildId);
  if (!clan) return refuse(SNL_TEXTS.notLinked);
  const user = await db.selectFrom('discord_identities').select('user_id').where('discord_id', '=', discordUserId).executeTakeFirst();
  if (!user) return refuse(SNL_TEXTS.signInFirst(ctx.origin));
  const led = await db.selectFrom('team_members')
    .innerJoin('igns', 'igns.id', 'team_members.ign_id')
    .innerJoin('games', 'games.event_id', 'team_members.event_id')
    .innerJoin('events', 'events.id', 'games.event_id')
    .innerJoin('team_states', (j) => j.onRef('team_states.game_id', '=', 'games.id').onRef('team_states.team_id', '=', 'team_members.team_id'))
    .select(['games.id as game_id', 'team_members.team_id', 'team_members.ign_id'])
    .where('igns.user_id', '=', user.user_id)
    .where('team_members.role', '=', 'Leader')
    .where('events.clan_id', '=', clan.id)
    .where('games.status', 'in', ['in-progress', 'paused'])
    .orderBy('games.id').orderBy('team_members.team_id')
    .execute();
  const candidates = game === null ? led : led.filter((l) => l.game_id === game);
  const gameIds = [...new Set(candidates.map((l) => l.game_id))];
  if (gameIds.length === 0) return refuse(SNL_TEXTS.leaderOnly);
  if (gameIds.length > 1) return refuse(SNL_TEXTS.whichGame(gameIds));
  const pick = candidates[0];
  const action = { game_id: pick.game_id, team_id: pick.team_id, performer_ign_id: pick.ign_id };
  const moves = ctx.deps.moves;
  if (!moves) return refuse('Rolling from Discord is not available on this server.');
  try {
    const pre = await precheckUserAction(db, 'roll', action, user.user_id);
    if (!pre) return refuse(SNL_TEXTS.signInFirst(ctx.origin));
    const applied = await moves.roll(action, pre, ctx.arrivedAt);
    return reply({ content: applied.log.map((e) => e.message).join('\n') });
  } catch (err) {
    if (err instanceof ActionRefused) return refuse(err.message);
    log.error({ err, game_id: action.game_id }, '[discord] /snl roll failed');
    throw err;
  }
}
