import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/context';
import { describe, ids, input, named, valid } from '../http/route';
import { EVENT_ID_LABELS, eventScope } from '../http/gameScope';
import { DraftAnswerSchema, DraftRoomAnswerSchema, StartDraftBodySchema } from '../../contract/draft';
import { loadDraftState } from './repository';
import { listSignups } from '../signups/repository';
import { recordAudit } from '../audit/service';
import { draftChanged, endDraft, pauseDraft, resumeDraft, startDraft, undoPick, type DraftOutcome } from './service';

/** The path ids: the event's. */
const EVENT_IDS = ids(EVENT_ID_LABELS);
const DraftAnswer = named('DraftAnswer', DraftAnswerSchema);

/**
 * The captains' draft of an event (docs/server.md §16, "Captains' draft"), errors as eventScope
 * (http/gameScope.ts: 401 signed out, 400 bad ids, 404 missing clan, 403 non-member or non-manager,
 * 404 'Event ID {id} not found.' for an event of another clan);
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

  app.get(
    base,
    describe({ tag: 'draft', access: 'member', summary: "The event's draft_state (null without a draft) and its sign-ups.", answer: named('DraftRoomAnswer', DraftRoomAnswerSchema) }),
    input('param', EVENT_IDS),
    async (c) => {
      const scope = await eventScope(c, false);
      const { db } = c.get('deps');
      return c.json({ event_name: scope.event.name, draft_state: await loadDraftState(db, scope.eventId), signups: await listSignups(db, scope.eventId, scope) });
    },
  );

  const answer = async (c: Context<AppEnv>, eventId: number, outcome: DraftOutcome) => {
    await draftChanged(c.get('deps'), eventId, outcome, c.get('user')?.id ?? null);
    return c.json({ draft_state: outcome.state });
  };

  app.post(
    base,
    describe({
      tag: 'draft', access: 'manager', answer: DraftAnswer,
      summary: "Starts the captains' draft (2..20 captains, pick_seconds 15..600, default 60); the captains' teams are made if needed, each captain their Leader.",
    }),
    input('param', EVENT_IDS),
    input('json', named('StartDraftBody', StartDraftBodySchema)),
    async (c) => {
      const { user, event, eventId } = await eventScope(c, true);
      const body = valid(c, 'json');
      const outcome = await startDraft(c.get('deps'), eventId, body);
      await recordAudit(c.get('deps').db, event.clan_id, user.id, 'draft.start', event.name, `${body.captain_signup_ids.length} captains, ${body.pick_seconds} s a pick`);
      return answer(c, eventId, outcome);
    },
  );

  const actions = {
    pause: { act: pauseDraft, summary: 'Stops the clock, keeping the time left.' },
    resume: { act: resumeDraft, summary: 'Runs the clock again with the time it had left.' },
    undo: { act: undoPick, summary: 'Takes back the last pick.' },
    end: { act: endDraft, summary: 'Ends the draft: every pick is placed on its team.' },
  };
  for (const [name, { act, summary }] of Object.entries(actions)) {
    app.post(
      `${base}/${name}`,
      describe({ tag: 'draft', access: 'manager', summary, answer: DraftAnswer }),
      input('param', EVENT_IDS),
      async (c) => {
        const { user, event, eventId } = await eventScope(c, true);
        const outcome = await act(c.get('deps'), eventId);
        // Of the draft's steps only its start and end are in the History (docs/server.md §18).
        if (name === 'end') await recordAudit(c.get('deps').db, event.clan_id, user.id, 'draft.end', event.name, 'Draft ended: picks placed on their teams');
        return answer(c, eventId, outcome);
      },
    );
  }

  return app;
}
