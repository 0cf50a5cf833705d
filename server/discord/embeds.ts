/**
 * What an announcement says on Discord (docs/server.md §10): the payload stored in the
 * outbox per announcement, and the message (embeds in the team colour, `allowed_mentions:
 * {parse: []}` always) built from the head of a webhook's queue.
 */

import { boardPicturePath } from '../http/pagePreloads';

/** A team as announced: name and `#rrggbb` colour. */
export interface AnnouncedTeam {
  name: string;
  color: string | null;
}

/**
 * The game and version whose board picture an announcement carries (docs/server.md §19): the
 * version its change set. Absent on announcements queued without one.
 */
export interface AnnouncedBoard {
  game_id: number;
  version: number;
}

/**
 * The team ping of an announcement about one team (docs/server.md §19 "Team pings"), set only
 * when the event's webhook has ping_teams on and the team has a Discord role: `ping` the role id,
 * `may_roll` true on an approval that lets the team roll (adds the line '{team} may roll.').
 */
export interface TeamPing {
  ping?: string;
  may_roll?: boolean;
}

/** One announcement, stored as JSON in discord_outbox.payload. */
export type Announcement =
  | { kind: 'status'; title: StatusTitle; event_name: string }
  | { kind: 'roll'; team: AnnouncedTeam; die: number; from: number; landing: number; to: number; via: 'snake' | 'ladder' | null; board?: AnnouncedBoard }
  /** A captains' draft pick (docs/server.md §16): the IGN picked, its number and round, and whether the clock picked. */
  | { kind: 'pick'; team: AnnouncedTeam; ign: string; pick: number; round: number; auto: boolean }
  | ({ kind: 'review'; team: AnnouncedTeam; square: number; task: string; decision: 'approved' | 'denied'; reviewer: string; reason: string | null } & TeamPing)
  | ({ kind: 'relief'; team: AnnouncedTeam; square: number; hours: number; task: string } & TeamPing)
  | { kind: 'result'; event_name: string; winner: AnnouncedTeam; standings: { name: string; color: string | null; position: number }[]; board?: AnnouncedBoard }
  | { kind: 'test'; event_name: string }
  /** Sign-ups opened or closed (docs/server.md §16); `close_at` the close time when open, or null. */
  | { kind: 'signups'; open: boolean; event_name: string; close_at: string | null };

/** The embed titles of status changes (docs/server.md §10, exactly). */
const STATUS_TITLES = ['Game started', 'Game paused', 'Game resumed', 'Game reset', 'Game finished'] as const;
export type StatusTitle = (typeof STATUS_TITLES)[number];

/** A Discord embed (the fields this product uses). */
export interface Embed {
  title: string;
  description?: string;
  color?: number;
  /** The board picture (docs/server.md §19), on a message's last embed. */
  image?: { url: string };
}

/**
 * The JSON body of one webhook post: mentions are never parsed from text; a team ping names its
 * role in `content` and is the one role allowed (docs/server.md §19).
 */
export interface WebhookMessage {
  content?: string;
  embeds: Embed[];
  allowed_mentions: { parse: []; roles?: string[] };
}

/** Colour of embeds without a team (Discord's blurple). */
const NEUTRAL_COLOR = 0x5865f2;
/** Discord's limits: 10 embeds per message, 4096 characters per description, 6000 in all embeds. */
const MAX_EMBEDS = 10;
const MAX_DESCRIPTION = 4000;
const MAX_TOTAL = 5800;

/** `#rrggbb` → the integer Discord wants; the neutral colour for anything else. */
function colorOf(hex: string | null | undefined): number {
  return hex && /^#[0-9a-fA-F]{6}$/.test(hex) ? parseInt(hex.slice(1), 16) : NEUTRAL_COLOR;
}

/** `value` cut to `max` characters (embed titles show no markdown, so they are not escaped). */
function cut(value: string, max = 200): string {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}

/**
 * User text in a description shown as text: Discord's inline markdown characters escaped, and a
 * leading '#', '-' or '>' (headings, lists, quotes), cut to `max` characters.
 */
function text(value: string, max = 200): string {
  return cut(value.replace(/([\\*_~`|[\]()<>])/g, '\\$1').replace(/^([#-])/, '\\$1'), max);
}

/** One line of a roll: die, from, to, and the snake or ladder taken. */
function rollLine(r: Extract<Announcement, { kind: 'roll' }>): string {
  const move = `🎲 Rolled a ${r.die}: ${r.from} → ${r.landing}`;
  if (r.via === 'snake') return `${move}, snake down to ${r.to}`;
  if (r.via === 'ladder') return `${move}, ladder up to ${r.to}`;
  return move;
}

/** One line of a draft pick: its number and round, the IGN, and who picked. */
function pickLine(p: Extract<Announcement, { kind: 'pick' }>): string {
  return `Pick ${p.pick} (round ${p.round}): ${text(p.ign)}${p.auto ? ' (picked by the clock)' : ''}`;
}

/** Announcements grouped per team into one message within the window (docs/server.md §10): rolls and draft picks. */
type Grouped = Extract<Announcement, { kind: 'roll' | 'pick' }>;

/** True for an announcement that nextMessage groups (a roll or a draft pick). */
export function isGrouped(a: Announcement): a is Grouped {
  return a.kind === 'roll' || a.kind === 'pick';
}

/** The embed of one announcement that is not grouped. */
function singleEmbed(a: Exclude<Announcement, Grouped>): Embed {
  switch (a.kind) {
    case 'status':
      return { title: a.title, description: text(a.event_name), color: NEUTRAL_COLOR };
    case 'review':
      return a.decision === 'approved'
        ? { title: 'Proof approved', description: `${text(a.team.name)}: square ${a.square}, ${text(a.task, 500)}\nApproved by ${text(a.reviewer)}.${a.may_roll ? `\n${text(a.team.name)} may roll.` : ''}`, color: colorOf(a.team.color) }
        : { title: 'Proof denied', description: `${text(a.team.name)}: square ${a.square}, ${text(a.task, 500)}\nDenied by ${text(a.reviewer)}: ${text(a.reason ?? '', 300)}`, color: colorOf(a.team.color) };
    case 'relief':
      return {
        title: 'New task (relief)',
        description: `${text(a.team.name)} was stuck on square ${a.square} for ${a.hours} h: new task ${text(a.task, 500)}`,
        color: colorOf(a.team.color),
      };
    case 'result':
      return {
        title: `Winner: ${cut(a.winner.name)}`,
        description: [`${text(a.event_name)}: final standings`, ...a.standings.slice(0, 50).map((s, i) => `${i + 1}. ${text(s.name)}: square ${s.position}`)].join('\n'),
        color: colorOf(a.winner.color),
      };
    case 'signups':
      return a.open
        ? {
            title: 'Sign-ups open',
            description: `Sign up for ${text(a.event_name)} on its event page.${a.close_at ? `\nSign-ups close ${a.close_at.slice(0, 16).replace('T', ' ')} UTC.` : ''}`,
            color: NEUTRAL_COLOR,
          }
        : { title: 'Sign-ups closed', description: `Sign-ups for ${text(a.event_name)} are closed.`, color: NEUTRAL_COLOR };
    case 'test':
      return { title: 'Test message', description: `Announcements of ${text(a.event_name)} will be posted here.`, color: NEUTRAL_COLOR };
  }
}

/** A queued announcement as the worker reads it. */
export interface QueuedAnnouncement {
  id: number;
  created_at: string;
  announcement: Announcement;
}

/**
 * The absolute URL of the board picture an announcement carries (docs/server.md §19):
 * `{publicOrigin}/api/public/game/{gameId}/board.png?v={version}` (http/pagePreloads.ts
 * boardPicturePath, the link preview's too); undefined without PUBLIC_ORIGIN or a board.
 */
function pictureUrl(a: Announcement, publicOrigin: string | null): string | undefined {
  const board = a.kind === 'roll' || a.kind === 'result' ? a.board : undefined;
  return publicOrigin && board ? publicOrigin + boardPicturePath(board.game_id, board.version) : undefined;
}

/**
 * The next message of a webhook's queue `head` (oldest first, not empty): a non-roll
 * announcement alone, or the consecutive rolls (or draft picks) created within `windowMs` of the first one,
 * one embed per team in its colour with a line per roll, at most 10 embeds and within Discord's
 * size limits (the rest go in the next message). Returns the message and the ids it carries.
 * With `publicOrigin` (PUBLIC_ORIGIN), a result, or a message of rolls, carries the board picture
 * as its last embed's image: the board after the newest roll it holds (docs/server.md §19).
 */
export function nextMessage(head: readonly QueuedAnnouncement[], windowMs: number, publicOrigin: string | null = null): { message: WebhookMessage; ids: number[] } {
  const first = head[0];
  if (!isGrouped(first.announcement)) {
    const embed = singleEmbed(first.announcement);
    const image = pictureUrl(first.announcement, publicOrigin);
    if (image) embed.image = { url: image };
    return { message: withPing(first.announcement, [embed]), ids: [first.id] };
  }
  const until = Date.parse(first.created_at) + windowMs;
  const embeds: Embed[] = [];
  const byTeam = new Map<string, Embed>();
  const ids: number[] = [];
  let total = 0;
  let image: string | undefined;
  for (const q of head) {
    const a = q.announcement;
    if (!isGrouped(a) || a.kind !== first.announcement.kind || Date.parse(q.created_at) >= until) break;
    const key = `${a.team.name}\u0000${a.team.color ?? ''}`;
    const line = a.kind === 'roll' ? rollLine(a) : pickLine(a);
    let embed = byTeam.get(key);
    const title = cut(a.team.name);
    const added = embed ? line.length + 1 : title.length + line.length;
    if (total + added > MAX_TOTAL) break;
    if (embed) {
      if ((embed.description ?? '').length + line.length + 1 > MAX_DESCRIPTION) break;
      embed.description = `${embed.description}\n${line}`;
    } else {
      if (embeds.length >= MAX_EMBEDS) break;
      embed = { title, description: line, color: colorOf(a.team.color) };
      byTeam.set(key, embed);
      embeds.push(embed);
    }
    total += added;
    ids.push(q.id);
    image = pictureUrl(a, publicOrigin) ?? image;
  }
  if (image) embeds[embeds.length - 1].image = { url: image };
  return { message: { embeds, allowed_mentions: { parse: [] } }, ids };
}

/** The message of one announcement alone (the test post). */
export function singleMessage(a: Exclude<Announcement, Grouped>): WebhookMessage {
  return withPing(a, [singleEmbed(a)]);
}

/**
 * The message of `embeds` of announcement `a`: with a team ping (review or relief with `ping`),
 * content '<@&{role}>' and that role as the only allowed mention; otherwise no mention at all.
 */
function withPing(a: Announcement, embeds: Embed[]): WebhookMessage {
  const role = (a.kind === 'review' || a.kind === 'relief') && a.ping && /^[0-9]{17,20}$/.test(a.ping) ? a.ping : null;
  if (role === null) return { embeds, allowed_mentions: { parse: [] } };
  return { content: `<@&${role}>`, embeds, allowed_mentions: { parse: [], roles: [role] } };
}
