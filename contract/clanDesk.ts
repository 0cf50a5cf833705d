import type { ClanEvent } from './event';
import type { ClanLiveGame } from './lobby';

/**
 * What the dashboard shows a manager about each clan they manage (docs/game-rules.md §1, the
 * dashboard; docs/server.md §3 lists the calls): its live games and, until the clan has
 * had a game, the getting-started steps.
 */

/**
 * The getting-started steps of a clan that has had no game: a task pool, an event, a team, and the
 * game (each true once done); `eventId` is the first event (by start), where teams and the game are made.
 */
export interface GettingStarted {
  tasks: boolean;
  event: boolean;
  teams: boolean;
  game: boolean;
  eventId: number | null;
}

/** One managed clan on the dashboard: its live games, and its getting-started steps (null once it has had a game). */
export interface ClanDesk {
  clanId: number;
  name: string;
  games: ClanLiveGame[];
  steps: GettingStarted | null;
}

/** Whether a clan has had a game: one of its events has one (the events list names each event's game). */
export function hasHadGame(events: readonly Pick<ClanEvent, 'game_id'>[]): boolean {
  return events.some((e) => e.game_id !== null);
}

/** The getting-started steps from the clan's events (sorted by start, as the server answers them) and the size of its task pool. */
export function gettingStartedOf(events: readonly Pick<ClanEvent, 'id' | 'game_id' | 'team_count'>[], taskCount: number): GettingStarted {
  return {
    tasks: taskCount > 0,
    event: events.length > 0,
    teams: events.some((e) => e.team_count > 0),
    game: hasHadGame(events),
    eventId: events[0]?.id ?? null,
  };
}

/**
 * One clan of the viewer's on the dashboard's Clan Events widget (any role; docs/client.md §1):
 * its upcoming and live events as GET /api/clan/{clanId}/events/?past=false answers them, each
 * naming whether sign-ups are taken (`game_status`, docs/server.md §16) and its draft's status.
 */
export interface ClanEventsDesk {
  clanId: number;
  name: string;
  events: ClanEvent[];
}
