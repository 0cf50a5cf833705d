import { useActorRef, useSelector } from '@xstate/react';
import { useId, useState, type FormEvent } from 'react';
import { useNow } from '../../base/useNow';
import type { ActorRefFrom } from 'xstate';
import { PICK_SECONDS_DEFAULT, PICK_SECONDS_MAX, PICK_SECONDS_MIN, DRAFT_CAPTAINS_MAX, DRAFT_CAPTAINS_MIN, clockLeftMs } from '../../../contract/draft';
import type { DraftState, Signup } from '../../../contract/signup';
import { draftRoomMachine, type DraftControl } from '../../../machines/draftRoom.machine';
import * as sel from '../../../machines/draftRoom.selectors';
import * as draftApi from '../../api/draft';
import { draftFeedActor } from '../../realtime/draftFeed';
import type { GameSocketLike } from '../../realtime/gameSocket';
import { LoadFailed } from '../../ui/LoadFailed';
import { FadingNotice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { latestCall, useLatest } from '../game/latest';
import { DRAFT_TEXTS, draftStatusText, freeAgents, nameOf, scoreText } from './draftTexts';

/** The draft room's calls and its socket (docs/server.md §16), replaceable in tests. */
export interface DraftEffects {
  fetchDraftRoom: typeof draftApi.fetchDraftRoom;
  startDraft: typeof draftApi.startDraft;
  controlDraft: typeof draftApi.controlDraft;
  /** Opens the room's socket (the real one, or a test's fake). */
  openSocket?: () => GameSocketLike;
}

/** The real calls and socket. */
const liveDraftEffects: DraftEffects = {
  fetchDraftRoom: draftApi.fetchDraftRoom,
  startDraft: draftApi.startDraft,
  controlDraft: draftApi.controlDraft,
};

/** Who is looking: their user id and whether they manage the clan. */
export interface DraftViewer {
  userId: number;
  isManager: boolean;
}

type DraftRoomRef = ActorRefFrom<typeof draftRoomMachine>;

/**
 * The captains' draft room of an event (docs/client.md §14; docs/server.md §16), for every member
 * of the clan, headed with the event's name: whose turn it is with a countdown, each team's picks,
 * and the pool of free agents with their scores; the captain on the clock has a Pick button per
 * player; managers have the start form (captains among the free agents: on no team and not placed
 * by the draft; none is offered after a draft that placed everyone, whose teams stay listed) and
 * Pause / Resume / Undo Last Pick / End Draft. An action's outcome fades (banner chart). Live over the socket (the draftRoom chart's feed); a sign-up the page does not know
 * yet shows as 'Sign-up #{id}' with Refresh Names (reads the room again). User text is rendered as text.
 */
export function DraftRoom({ clanId, eventId, viewer, effects = liveDraftEffects, feed }: {
  clanId: number;
  eventId: number;
  viewer: DraftViewer;
  effects?: DraftEffects;
  /** The chart's feed actor (tests give their own); by default the socket of `effects.openSocket`. */
  feed?: ReturnType<typeof draftFeedActor>;
}) {
  const latest = useLatest({ clanId, eventId, effects });
  const room = useActorRef(
    draftRoomMachine.provide({
      actors: {
        loadRoom: latestCall(latest, (fx, clan, event) => fx.fetchDraftRoom(clan, event)),
        startDraft: latestCall(latest, (fx, clan, event, input: { captainIds: number[]; pickSeconds: number }) => fx.startDraft(clan, event, input.captainIds, input.pickSeconds)),
        controlDraft: latestCall(latest, (fx, clan, event, input: { action: DraftControl }) => fx.controlDraft(clan, event, input.action)),
        feed: feed ?? draftFeedActor(eventId, effects.openSocket),
      },
    }),
  );
  const phase = useSelector(room, sel.selectDraftPhase);
  const draft = useSelector(room, sel.selectDraft);
  const signups = useSelector(room, sel.selectSignups);
  const loadError = useSelector(room, sel.selectDraftError);
  const banner = useSelector(room, sel.selectDraftBanner);
  const eventName = useSelector(room, sel.selectEventName);
  const busy = useSelector(room, sel.isDraftBusy);
  const canStart = useSelector(room, sel.canStartDraft);
  const free = freeAgents(signups, draft);
  // After a draft, the form shows only while someone is left to draft (its teams stay listed above).
  const startShown = viewer.isManager && (draft === null || (draft.status === 'done' && free.length > 0));

  return (
    <section className="panel draft-room" aria-labelledby="draft-room-title" data-testid="draft-room" data-phase={phase}>
      <h2 id="draft-room-title">
        {DRAFT_TEXTS.title}
        {eventName && `: ${eventName}`}
      </h2>
      {phase === 'loading' && <Spinner text={DRAFT_TEXTS.loading} />}
      {phase === 'failed' && <LoadFailed error={loadError} onRetry={() => room.send({ type: 'draft.reload' })} />}
      {phase !== 'loading' && phase !== 'failed' && (
        <>
          {banner && <DraftBanner banner={banner} />}
          {busy && <Spinner text={phase === 'starting' || phase === 'picking' ? DRAFT_TEXTS.busy[phase] : DRAFT_TEXTS.busy.controlling} />}
          {draft ? <DraftBoard room={room} draft={draft} signups={signups} viewer={viewer} /> : <p data-testid="draft-none">{DRAFT_TEXTS.none}</p>}
          {viewer.isManager && draft && draft.status !== 'done' && <DraftControls room={room} />}
          {startShown && <StartDraftForm room={room} signups={signups} free={free} disabled={busy || !canStart} />}
        </>
      )}
    </section>
  );
}

/** The fading outcome of the last action (banner chart: fades at 4 s, gone at 5 s). */
function DraftBanner({ banner }: { banner: NonNullable<ReturnType<typeof sel.selectDraftBanner>> }) {
  const message = useSelector(banner, sel.selectBannerText);
  const fading = useSelector(banner, sel.isBannerTextFading);
  return <FadingNotice message={message} fading={fading} testId="draft-message" />;
}

/** Whose turn with the countdown, each team's picks, and the pool with Pick buttons for the captain on the clock. */
function DraftBoard({ room, draft, signups, viewer }: { room: DraftRoomRef; draft: DraftState; signups: Signup[]; viewer: DraftViewer }) {
  const canPick = useSelector(room, sel.canPickNow);
  // Milliseconds left on the draft's clock, counted down every second on screen (display only).
  const left = clockLeftMs(draft, useNow(1000));
  const captainOf = (teamId: number) => draft.captains.find((c) => c.team_id === teamId);
  const teamName = (teamId: number) => DRAFT_TEXTS.teamOf(nameOf(signups, captainOf(teamId)?.signup_id ?? 0));
  const onClock = draft.on_the_clock;
  const myTurn = onClock !== null && signups.find((s) => s.id === captainOf(onClock)?.signup_id)?.user_id === viewer.userId;
  const byId = new Map(signups.map((s) => [s.id, s]));
  const unknown = [...draft.pool, ...draft.picks.map((p) => p.signup_id)].some((id) => !byId.has(id));
  return (
    <div className="draft-room__board">
      {unknown && (
        <p className="row" data-testid="draft-unknown">
          {DRAFT_TEXTS.unknownNames}
          <button type="button" className="btn btn--small" onClick={() => room.send({ type: 'draft.reload' })}>
            {DRAFT_TEXTS.refreshNames}
          </button>
        </p>
      )}
      <p className="draft-room__status" data-testid="draft-status" aria-live="polite">
        {draftStatusText(draft, onClock === null ? null : teamName(onClock), left)}
        {myTurn && <strong> {DRAFT_TEXTS.yourTurn}</strong>}
      </p>
      <div className="draft-room__teams">
        {draft.order.map((teamId) => (
          <section key={teamId} className="draft-room__team" aria-label={teamName(teamId)} data-testid={`draft-team-${teamId}`} data-on-clock={teamId === onClock}>
            <h3>{teamName(teamId)}</h3>
            <ol>
              <li className="muted">{DRAFT_TEXTS.captain(nameOf(signups, captainOf(teamId)?.signup_id ?? 0))}</li>
              {draft.picks.filter((p) => p.team_id === teamId).map((p) => (
                <li key={p.signup_id}>
                  {nameOf(signups, p.signup_id)}
                  {p.auto && <span className="muted"> {DRAFT_TEXTS.auto}</span>}
                </li>
              ))}
            </ol>
          </section>
        ))}
      </div>
      {/* Once the draft is over its pool is closed: the sign-ups left are offered by the start form. */}
      {draft.status === 'done' ? null : <h3>{DRAFT_TEXTS.pool(draft.pool.length)}</h3>}
      {draft.status === 'done' ? null : draft.pool.length === 0 ? (
        <p className="muted">{DRAFT_TEXTS.poolEmpty}</p>
      ) : (
        <ul className="draft-room__pool" data-testid="draft-pool">
          {draft.pool.map((id) => (
            <li key={id} className="row">
              <span className="draft-room__player">{nameOf(signups, id)}</span>
              <span className="muted">{scoreText(byId.get(id)?.score ?? null)}</span>
              {myTurn && (
                <button type="button" className="btn btn--small btn--primary" disabled={!canPick} onClick={() => room.send({ type: 'draft.pick', signupId: id })}>
                  {DRAFT_TEXTS.pickLabel(nameOf(signups, id))}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The manager's Pause / Resume / Undo Last Pick / End Draft, each enabled where the chart takes it. */
function DraftControls({ room }: { room: DraftRoomRef }) {
  const allowed: Record<DraftControl, boolean> = {
    pause: useSelector(room, sel.canPause),
    resume: useSelector(room, sel.canResume),
    undo: useSelector(room, sel.canUndo),
    end: useSelector(room, sel.canEnd),
  };
  return (
    <div className="row draft-room__controls" role="group" aria-label={DRAFT_TEXTS.controls}>
      {(Object.keys(DRAFT_TEXTS.control) as DraftControl[]).map((action) => (
        <button key={action} type="button" className={action === 'end' ? 'btn btn--danger' : 'btn'} disabled={!allowed[action]} onClick={() => room.send({ type: 'draft.control', action })}>
          {DRAFT_TEXTS.control[action]}
        </button>
      ))}
    </div>
  );
}

/**
 * The manager's start form: captains chosen among the free agents `free` (in the order ticked: the
 * first round's order) and seconds per pick (15..600, default 60). Without free agents it says
 * whether nobody signed up or everyone is on a team.
 */
function StartDraftForm({ room, signups, free, disabled }: { room: DraftRoomRef; signups: Signup[]; free: Signup[]; disabled: boolean }) {
  const id = useId();
  const [captains, setCaptains] = useState<number[]>([]);
  const [seconds, setSeconds] = useState(String(PICK_SECONDS_DEFAULT));
  const pickSeconds = Number(seconds);
  const secondsOk = Number.isInteger(pickSeconds) && pickSeconds >= PICK_SECONDS_MIN && pickSeconds <= PICK_SECONDS_MAX;
  const captainsOk = captains.length >= DRAFT_CAPTAINS_MIN && captains.length <= DRAFT_CAPTAINS_MAX;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (secondsOk && captainsOk) room.send({ type: 'draft.start', captainIds: captains, pickSeconds });
  };
  const toggle = (signupId: number) => setCaptains((held) => (held.includes(signupId) ? held.filter((c) => c !== signupId) : [...held, signupId]));
  return (
    <form className="draft-room__start" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{DRAFT_TEXTS.startTitle}</h3>
      {free.length === 0 ? (
        <p className="muted" data-testid="draft-no-free">{signups.length === 0 ? DRAFT_TEXTS.noSignups : DRAFT_TEXTS.allPlaced}</p>
      ) : (
        <fieldset>
          <legend>{DRAFT_TEXTS.captainsLegend}</legend>
          {free.map((s) => (
            <label key={s.id} className="switch">
              <input type="checkbox" checked={captains.includes(s.id)} onChange={() => toggle(s.id)} />
              <span>
                {s.ign} <span className="muted">{scoreText(s.score)}{s.wants_leader ? `, ${DRAFT_TEXTS.wantsLeader}` : ''}</span>
                {captains.includes(s.id) && <strong> #{captains.indexOf(s.id) + 1}</strong>}
              </span>
            </label>
          ))}
        </fieldset>
      )}
      <label className="field__label" htmlFor={`${id}-seconds`}>
        {DRAFT_TEXTS.secondsLabel}
      </label>
      <input id={`${id}-seconds`} className="input" type="number" inputMode="numeric" min={PICK_SECONDS_MIN} max={PICK_SECONDS_MAX} value={seconds} onChange={(e) => setSeconds(e.target.value)} aria-invalid={!secondsOk} />
      {!secondsOk && <p className="field__error">{DRAFT_TEXTS.secondsRule}</p>}
      <button type="submit" className="btn btn--primary" disabled={disabled || !secondsOk || !captainsOk}>
        {DRAFT_TEXTS.start}
      </button>
    </form>
  );
}
