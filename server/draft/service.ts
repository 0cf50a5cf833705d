import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Deps } from '../http/context';
import { nowIso } from '../time';
import { lockEvent } from '../db/locks';
import { conflict, notFound } from '../errors';
import { gameOfEvent } from '../events/repository';
import { addTeamToGame, insertTeam, loadTeam, teamNamedLike, teamOfIgn } from '../teams/repository';
import { broadcastTeamChange } from '../teams/service';
import { findWebhook, insertAnnouncement } from '../discord/repository';
import { DRAFT_MESSAGES, snakeTurn, type StartDraftBody } from '../../contract/draft';
import { TEAM_COLOR_PRESETS } from '../../contract/team';
import type { DraftState } from '../../contract/signup';
import { heldByMember } from '../signups/repository';
import { captainLeft, findDraft, listPicks, listPool, nextPickNo, stateOf, updateDraft, type DraftChange, type DraftRow, type PickRow, type PoolEntry } from './repository';
import { log } from '../observability/log';
import { notifyDraftTurn } from '../push/service';

/** What a committed change of a draft leaves to do: send its state, and tell the rooms of the teams whose members changed. */
export interface DraftOutcome {
  state: DraftState;
  teamIds: number[];
}

type Trx = Transaction<Database>;

/** Game statuses after which teams are no longer drafted. */
const GAME_UNDER_WAY = new Set(['in-progress', 'paused', 'finished', 'completed']);

const later = (ms: number) => new Date(Date.now() + ms).toISOString();

/**
 * The deadline of turn `turnNo` of `draft`: `ms` from now, or now when the captain of the team
 * whose turn it is has left the clan, so the clock picks for that team at once, as if their time
 * had run out (docs/server.md §16, "Members only").
 */
async function turnDeadline(trx: Trx, draft: DraftRow, turnNo: number, ms: number): Promise<string> {
  return (await turnCaptainLeft(trx, draft, turnNo)) ? nowIso() : later(ms);
}

/** True when the captain of the team whose turn `turnNo` is has left the clan (captainLeft). */
async function turnCaptainLeft(trx: Trx, draft: DraftRow, turnNo: number): Promise<boolean> {
  const teamId = snakeTurn(draft.order, turnNo).team_id;
  const captain = draft.captains.find((c) => c.team_id === teamId);
  return captain !== undefined && (await captainLeft(trx, draft.event_id, captain.signup_id));
}

/**
 * Runs `change` on the draft of `eventId` in one transaction that holds the event (lockEvent), so
 * changes of one draft — from any process — happen one at a time and each sees the last. 409
 * DRAFT_MESSAGES.noDraft without a draft. `change` answers the new columns (or null for no
 * change) and may write picks and team members; the draft's version must still be the one read
 * (updateDraft), else nothing is written.
 */
async function changeDraft(
  deps: Deps,
  eventId: number,
  change: (trx: Trx, draft: DraftRow, picks: PickRow[], pool: PoolEntry[]) => Promise<{ set: DraftChange; teamIds?: number[] } | null>,
): Promise<DraftOutcome | null> {
  return deps.db.transaction().execute(async (trx) => {
    await lockEvent(trx, deps.dialect, eventId);
    const draft = await findDraft(trx, eventId);
    if (!draft) throw conflict(DRAFT_MESSAGES.noDraft);
    const picks = await listPicks(trx, eventId);
    const pool = await listPool(trx, eventId);
    const done = await change(trx, draft, picks, pool);
    if (!done) return null;
    if (!(await updateDraft(trx, eventId, draft.version, done.set))) throw conflict('The draft changed meanwhile. Try again.');
    const saved = (await findDraft(trx, eventId))!;
    return { state: stateOf(saved, await listPicks(trx, eventId), await listPool(trx, eventId)), teamIds: done.teamIds ?? [] };
  });
}

/**
 * Places every picked sign-up on its team (docs/server.md §16): a team_members row as Member with
 * the sign-up's IGN (unless that IGN is on a team of the event already) and signups.team_id. A
 * pick whose player is no longer in the clan is not placed. Answers the teams that changed.
 */
async function placePicks(trx: Trx, eventId: number): Promise<number[]> {
  const picks = await trx.selectFrom('draft_picks')
    .innerJoin('signups', 'signups.id', 'draft_picks.signup_id')
    .select(['draft_picks.team_id', 'draft_picks.signup_id', 'signups.osrs_ign_id'])
    .where('draft_picks.event_id', '=', eventId)
    .where((eb) => heldByMember(eb))
    .orderBy('draft_picks.pick_no')
    .execute();
  const now = nowIso();
  const teams = new Set<number>();
  for (const p of picks) {
    if (!(await teamOfIgn(trx, eventId, p.osrs_ign_id))) {
      await trx.insertInto('team_members').values({ team_id: p.team_id, event_id: eventId, ign_id: p.osrs_ign_id, role: 'Member', created_at: now }).execute();
    }
    await trx.updateTable('signups').set({ team_id: p.team_id, updated_at: now }).where('id', '=', p.signup_id).execute();
    teams.add(p.team_id);
  }
  return [...teams];
}

/**
 * Writes the pick of `entry` for the team on the clock, announces it on Discord, and answers the
 * draft's next columns: done (and every pick placed on its team) when the pool is then empty,
 * else the next turn's clock (turnDeadline).
 */
async function writePick(trx: Trx, draft: DraftRow, picks: PickRow[], pool: PoolEntry[], entry: PoolEntry, auto: boolean): Promise<{ set: DraftChange; teamIds?: number[] }> {
  // The turn is the pick's number (nextPickNo): a pick that went with its team or its sign-up
  // leaves a gap, and the turns after it stay whose they were.
  const pickNo = nextPickNo(picks);
  const turn = snakeTurn(draft.order, pickNo);
  const team = await trx.selectFrom('teams').select('id').where('id', '=', turn.team_id).executeTakeFirst();
  if (!team) throw conflict(DRAFT_MESSAGES.teamGone);
  await trx.insertInto('draft_picks').values({ event_id: draft.event_id, pick_no: pickNo, team_id: turn.team_id, signup_id: entry.signup_id, at: nowIso(), auto: auto ? 1 : 0 }).execute();
  await announcePick(trx, draft.event_id, turn.team_id, { ign: entry.ign, pick: pickNo + 1, round: turn.round, auto });
  if (pool.length === 1) return { set: { status: 'done', deadline: null, paused_remaining_ms: null }, teamIds: await placePicks(trx, draft.event_id) };
  return { set: { deadline: await turnDeadline(trx, draft, pickNo + 1, draft.pick_seconds * 1000) } };
}

/**
 * Queues a pick's announcement for the event's Discord webhook (docs/server.md §10), when it has
 * one that is not disabled; the worker groups picks like rolls.
 */
async function announcePick(trx: Trx, eventId: number, teamId: number, pick: { ign: string; pick: number; round: number; auto: boolean }): Promise<void> {
  const hook = await findWebhook(trx, eventId);
  if (!hook || hook.state === 'disabled') return;
  const team = await trx.selectFrom('teams').select(['name', 'color']).where('id', '=', teamId).executeTakeFirstOrThrow();
  const game = await gameOfEvent(trx, eventId);
  await insertAnnouncement(trx, hook.id, game?.id ?? null, { kind: 'pick', team, ...pick });
}

/** The first preset colour no team of the event has, else the presets in turn. */
function freeColor(used: Set<string>, index: number): string {
  const free = TEAM_COLOR_PRESETS.find((p) => !used.has(p.hex.toLowerCase()));
  return (free ?? TEAM_COLOR_PRESETS[index % TEAM_COLOR_PRESETS.length]).hex;
}

/**
 * The team of a captain (docs/server.md §16): the team the sign-up or its IGN is on already,
 * else a new team 'Team {IGN}' (with ' 2', ' 3'... when that name is taken) in the first preset
 * colour no team of the event has, added to the event's game when there is one; the captain is
 * its Leader (added, or promoted), and the sign-up is placed on it.
 */
async function captainTeam(trx: Trx, eventId: number, signup: { id: number; osrs_ign_id: number; ign: string; team_id: number | null }, index: number): Promise<number> {
  const onTeam = await teamOfIgn(trx, eventId, signup.osrs_ign_id);
  let teamId = onTeam?.id ?? signup.team_id;
  const now = nowIso();
  if (teamId === null) {
    let name = `Team ${signup.ign}`;
    for (let k = 2; await teamNamedLike(trx, eventId, name); k += 1) name = `Team ${signup.ign} ${k}`;
    const colors = await trx.selectFrom('teams').select('color').where('event_id', '=', eventId).execute();
    teamId = await insertTeam(trx, eventId, name, freeColor(new Set(colors.map((c) => c.color.toLowerCase())), index));
    const game = await gameOfEvent(trx, eventId);
    if (game) await addTeamToGame(trx, game, teamId);
  }
  if (onTeam) {
    await trx.updateTable('team_members').set({ role: 'Leader' }).where('event_id', '=', eventId).where('ign_id', '=', signup.osrs_ign_id).execute();
  } else {
    await trx.insertInto('team_members').values({ team_id: teamId, event_id: eventId, ign_id: signup.osrs_ign_id, role: 'Leader', created_at: now }).execute();
  }
  await trx.updateTable('signups').set({ team_id: teamId, updated_at: now }).where('id', '=', signup.id).execute();
  return teamId;
}

/**
 * POST .../draft (docs/server.md §16): starts the captains' draft of event `eventId`. 409 while a
 * draft is running or paused (a finished one is replaced), 409 once the event's game is under way,
 * 404 for a captain sign-up of another event (or gone), 409 DRAFT_MESSAGES.captainLeft for the
 * sign-up of someone no longer in the clan, 409 for two captains of one team or an empty pool.
 * Makes the captains' teams (captainTeam), the first round in the order of `captain_signup_ids`,
 * and the first captain's clock.
 */
export async function startDraft(deps: Deps, eventId: number, body: StartDraftBody): Promise<DraftOutcome> {
  return deps.db.transaction().execute(async (trx) => {
    await lockEvent(trx, deps.dialect, eventId);
    const existing = await findDraft(trx, eventId);
    if (existing && existing.status !== 'done') throw conflict(DRAFT_MESSAGES.alreadyRunning);
    const game = await gameOfEvent(trx, eventId);
    if (game && GAME_UNDER_WAY.has(game.status)) throw conflict(DRAFT_MESSAGES.gameStarted);
    if (existing) {
      await trx.deleteFrom('draft_picks').where('event_id', '=', eventId).execute();
      await trx.deleteFrom('drafts').where('event_id', '=', eventId).execute();
    }
    const rows = await trx.selectFrom('signups')
      .innerJoin('igns', 'igns.id', 'signups.osrs_ign_id')
      .select(['signups.id', 'signups.osrs_ign_id', 'igns.ign', 'signups.team_id'])
      .where('signups.event_id', '=', eventId)
      .where('signups.id', 'in', body.captain_signup_ids)
      .execute();
    const held = await trx.selectFrom('signups').select('id').where('event_id', '=', eventId).where('id', 'in', body.captain_signup_ids).where((eb) => heldByMember(eb)).execute();
    for (const signupId of body.captain_signup_ids) {
      if (!rows.some((r) => r.id === signupId)) throw notFound(DRAFT_MESSAGES.captainNotFound(signupId));
      // A captain leads their team as Leader: never someone who left the clan.
      if (!held.some((r) => r.id === signupId)) throw conflict(DRAFT_MESSAGES.captainLeft(signupId));
    }
    const captains: DraftRow['captains'] = [];
    for (const [i, signupId] of body.captain_signup_ids.entries()) {
      const signup = rows.find((r) => r.id === signupId)!;
      const teamId = await captainTeam(trx, eventId, signup, i);
      if (captains.some((c) => c.team_id === teamId)) throw conflict(DRAFT_MESSAGES.captainSameTeam);
      captains.push({ team_id: teamId, signup_id: signupId });
    }
    const pool = await listPool(trx, eventId);
    if (pool.length === 0) throw conflict(DRAFT_MESSAGES.poolEmpty);
    const now = nowIso();
    await trx.insertInto('drafts').values({
      event_id: eventId,
      status: 'running',
      pick_seconds: body.pick_seconds,
      team_order: JSON.stringify(captains.map((c) => c.team_id)),
      captains: JSON.stringify(captains),
      deadline: later(body.pick_seconds * 1000),
      paused_remaining_ms: null,
      version: 1,
      created_at: now,
      updated_at: now,
    }).execute();
    const saved = (await findDraft(trx, eventId))!;
    return { state: stateOf(saved, [], pool), teamIds: captains.map((c) => c.team_id) };
  });
}

/** 409 unless the draft is running: DRAFT_MESSAGES.over when done, .paused when paused. */
function requireRunning(draft: DraftRow): void {
  if (draft.status === 'done') throw conflict(DRAFT_MESSAGES.over);
  if (draft.status === 'paused') throw conflict(DRAFT_MESSAGES.paused);
}

/**
 * draft_pick (docs/server.md §16): user `userId` picks sign-up `signupId` for their team. Refused
 * (409, sent as action_error) unless the draft is running, the user is still a member of the
 * event's clan (DRAFT_MESSAGES.notMember: a captain who left is replaced by the clock) and the
 * captain of the team on the clock, and the sign-up is in the pool (DRAFT_MESSAGES.playerLeft for
 * the sign-up of someone no longer in the clan). Nothing is written on a refusal.
 */
export async function captainPick(deps: Deps, eventId: number, userId: number, signupId: number): Promise<DraftOutcome> {
  const outcome = await changeDraft(deps, eventId, async (trx, draft, picks, pool) => {
    requireRunning(draft);
    const member = await trx.selectFrom('clan_memberships')
      .innerJoin('events', 'events.clan_id', 'clan_memberships.clan_id')
      .select('clan_memberships.id')
      .where('events.id', '=', eventId)
      .where('clan_memberships.user_id', '=', userId)
      .executeTakeFirst();
    if (!member) throw conflict(DRAFT_MESSAGES.notMember);
    const onClock = snakeTurn(draft.order, nextPickNo(picks)).team_id;
    const captain = draft.captains.find((c) => c.team_id === onClock);
    const owner = captain ? await trx.selectFrom('signups').select('user_id').where('id', '=', captain.signup_id).executeTakeFirst() : undefined;
    if (owner?.user_id !== userId) throw conflict(DRAFT_MESSAGES.notYourTurn);
    const entry = pool.find((p) => p.signup_id === signupId);
    if (!entry) {
      const left = await trx.selectFrom('signups').select('id').where('id', '=', signupId).where('event_id', '=', eventId).where((eb) => eb.not(heldByMember(eb))).executeTakeFirst();
      throw conflict(left ? DRAFT_MESSAGES.playerLeft : DRAFT_MESSAGES.notInPool);
    }
    return writePick(trx, draft, picks, pool, entry, false);
  });
  return outcome!;
}

/**
 * The clock of a draft ran out (docs/server.md §16): when the draft of `eventId` is still at
 * `version`, running, and its deadline has passed, the highest-scored free agent is picked for
 * the team on the clock (`auto`). Null when anything changed meanwhile (another process's clock
 * or a captain was first): the conditional write makes the clock pick once however many
 * processes fire.
 */
export async function clockPick(deps: Deps, eventId: number, version: number): Promise<DraftOutcome | null> {
  try {
    return await changeDraft(deps, eventId, async (trx, draft, picks, pool) => {
      if (draft.version !== version || draft.status !== 'running' || draft.deadline === null) return null;
      if (Date.parse(draft.deadline) > Date.now()) return null;
      // Free agents placed on teams by hand meanwhile: nobody is left, the draft is done.
      if (pool.length === 0) return { set: { status: 'done', deadline: null, paused_remaining_ms: null }, teamIds: await placePicks(trx, eventId) };
      return writePick(trx, draft, picks, pool, pool[0], true);
    });
  } catch (err) {
    // The draft was deleted or changed meanwhile: nothing to pick.
    if (err instanceof Error && 'status' in err) return null;
    throw err;
  }
}

/** POST .../draft/pause: stops the clock, keeping the time left; 409 when paused or done. */
export async function pauseDraft(deps: Deps, eventId: number): Promise<DraftOutcome> {
  const outcome = await changeDraft(deps, eventId, async (_trx, draft) => {
    if (draft.status === 'done') throw conflict(DRAFT_MESSAGES.over);
    if (draft.status === 'paused') throw conflict(DRAFT_MESSAGES.alreadyPaused);
    const left = draft.deadline === null ? draft.pick_seconds * 1000 : Math.max(0, Date.parse(draft.deadline) - Date.now());
    return { set: { status: 'paused', deadline: null, paused_remaining_ms: left } };
  });
  return outcome!;
}

/**
 * POST .../draft/resume: the clock runs again with the time it had left (at least 1 s; none when
 * the captain on the clock has left the clan: turnDeadline); 409 unless paused.
 */
export async function resumeDraft(deps: Deps, eventId: number): Promise<DraftOutcome> {
  const outcome = await changeDraft(deps, eventId, async (trx, draft, picks) => {
    if (draft.status === 'done') throw conflict(DRAFT_MESSAGES.over);
    if (draft.status !== 'paused') throw conflict(DRAFT_MESSAGES.notPaused);
    const left = Math.max(1000, draft.paused_remaining_ms ?? draft.pick_seconds * 1000);
    return { set: { status: 'running', deadline: await turnDeadline(trx, draft, nextPickNo(picks), left), paused_remaining_ms: null } };
  });
  return outcome!;
}

/**
 * POST .../draft/undo: takes back the last pick; its sign-up returns to the pool and its team is on
 * the clock again with a full clock (a paused draft keeps a full clock for when it resumes; a team
 * whose captain left the clan gets none: turnDeadline). 409 when done or without picks.
 */
export async function undoPick(deps: Deps, eventId: number): Promise<DraftOutcome> {
  const outcome = await changeDraft(deps, eventId, async (trx, draft, picks) => {
    if (draft.status === 'done') throw conflict(DRAFT_MESSAGES.over);
    const last = picks.at(-1);
    if (!last) throw conflict(DRAFT_MESSAGES.noPicks);
    await trx.deleteFrom('draft_picks').where('event_id', '=', eventId).where('pick_no', '=', last.pick_no).execute();
    const full = draft.pick_seconds * 1000;
    return { set: draft.status === 'running' ? { deadline: await turnDeadline(trx, draft, nextPickNo(picks.slice(0, -1)), full) } : { paused_remaining_ms: full } };
  });
  return outcome!;
}

/** POST .../draft/end: the draft is done and every pick placed on its team; 409 when done already. */
export async function endDraft(deps: Deps, eventId: number): Promise<DraftOutcome> {
  const outcome = await changeDraft(deps, eventId, async (trx, draft) => {
    if (draft.status === 'done') throw conflict(DRAFT_MESSAGES.over);
    return { set: { status: 'done', deadline: null, paused_remaining_ms: null }, teamIds: await placePicks(trx, eventId) };
  });
  return outcome!;
}

/**
 * A member left the clan of event `eventId` (docs/server.md §16, "Members only"): run inside the
 * departure's transaction (server/clans/departure.ts), which holds the event; `withdraw` withdraws
 * the member's sign-up (a pick of it goes with it). A running or paused draft gets a new version:
 * when the team on the clock has lost its captain, or nobody is left to draft, a running one runs
 * out now, so the clock picks for that team (or ends the draft) at once; when the last pick went,
 * its team is on the clock again with a full clock, as after an undo. True when there was such a
 * draft, whose draft_state is then to be sent (draftChanged).
 */
export async function draftAfterDeparture(trx: Trx, eventId: number, withdraw: () => Promise<void>): Promise<boolean> {
  const draft = await findDraft(trx, eventId);
  const turnBefore = draft ? nextPickNo(await listPicks(trx, eventId)) : 0;
  await withdraw();
  if (!draft || draft.status === 'done') return false;
  const turn = nextPickNo(await listPicks(trx, eventId));
  const full = draft.pick_seconds * 1000;
  let set: DraftChange = {};
  if (draft.status === 'running') {
    const pool = await listPool(trx, eventId);
    if (pool.length === 0 || (await turnCaptainLeft(trx, draft, turn))) set = { deadline: nowIso() };
    else if (turn !== turnBefore) set = { deadline: later(full) };
  } else if (turn !== turnBefore) {
    set = { paused_remaining_ms: full };
  }
  return updateDraft(trx, eventId, draft.version, set);
}

/**
 * After a draft change committed: its `draft_state` to the draft room (every process), the
 * teams whose members changed to the rooms of the event's game (`team_update`), and this
 * process's clock set to the new deadline, and the captain on the clock's push queued (`actorId`
 * made the change: none to them). Never throws: the change is stored already.
 */
export async function draftChanged(deps: Deps, eventId: number, outcome: DraftOutcome, actorId: number | null = null): Promise<void> {
  // 'Your pick' to the captain on the clock, unless they made the change (docs/server.md §20).
  await notifyDraftTurn(deps, outcome.state, actorId);
  try {
    deps.broadcaster.draftChanged(outcome.state);
    deps.draftClock?.changed(eventId);
    for (const teamId of outcome.teamIds) await broadcastTeamChange(deps, eventId, await loadTeam(deps.db, teamId), { teamSetChanged: true });
  } catch (err) {
    log.error({ err, event_id: eventId }, '[draft] broadcast failed');
  }
}
