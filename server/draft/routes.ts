import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context';
import { pathId, readJson, requireUser } from '../http/context';
import { requireManager, requireMember } from '../clans/access';
import { findEvent } from '../events/repository';
import { StartDraftBodySchema } from '../../contract/draft';
import { loadDraftState } from './repository';
import { listSignups } from '../signups/repository';
import { draftChanged, endDraft, pauseDraft, resumeDraft, startDraft, undoPick, type DraftOutcome } from './service';

/**
 * The signed-in user, the path's clan and event, checked: 401 signed out, 400 bad ids, 404 missing
 * clan, 403 non-member (or non-manager when `manager`), 404 'Event ID {id} not found.' for an
 * event of another clan.
 */
async function draftScope(c: Context<AppEnv>, manager: boolean): Promise<{ eventId: number; eventName: string }> {
  const user = requireUser(c);
  const clanId = pathId(c, 'clanId', 'clan id');
  const eventId = pathId(c, 'eventId', 'event id');
  const { db } = c.get('deps');
  await (manager ? requireManager : requireMember)(db, clanId, user.id);
  const event = await findEvent(db, clanId, eventId);
  return { eventId, eventName: event.name };
}

/**
 * The captains' draft of an event (docs/server.md §16, "Captains' draft"), errors as draftScope;
 * every change answers `{draft_state}` and sends it to the draft room (draft_state), and the
 * teams it changed to the game's rooms (team_update).
 * - GET /clan/{clanId}/events/{eventId}/draft → {event_name, draft_state (null without a draft),
 *   signups (every sign-up of the event, oldest first, to name the ids of draft_state)}, members
 * - POST same path {captain_signup_ids, pick_seconds} starts it, managers: 400 bad body, 404 a
 *   captain sign-up of another event, 409 a draft under way / the game under way / two captains
 *   of one team / nobody to draft (draft/service.ts startDraft)
 * - POST .../draft/pause, /resume, /undo, /end, managers: 409 when there is no draft or the
 *   change does not apply (paused already, not paused, nothing to undo, over)
 */
export function draftRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const base = '/clan/:clanId/events/:eventId/draft';

  app.get(base, async (c) => {
    const { eventId, eventName } = await draftScope(c, false);
    const { db } = c.get('deps');
    return c.json({ event_name: eventName, draft_state: await loadDraftState(db, eventId), signups: await listSignups(db, eventId) });
  });

  const answer = async (c: Context<AppEnv>, eventId: number, outcome: DraftOutcome) => {
    await draftChanged(c.get('deps'), eventId, outcome);
    return c.json({ draft_state: outcome.state });
  };

  app.post(base, async (c) => {
    const { eventId } = await draftScope(c, true);
    const body = await readJson(c, StartDraftBodySchema);
    return answer(c, eventId, await startDraft(c.get('deps'), eventId, body));
  });

  const actions = { pause: pauseDraft, resume: resumeDraft, undo: undoPick, end: endDraft } as const;
  for (const [name, act] of Object.entries(actions)) {
    app.post(`${base}/${name}`, async (c) => {
      const { eventId } = await draftScope(c, true);
      return answer(c, eventId, await act(c.get('deps'), eventId));
    });
  }

  return app;
}
