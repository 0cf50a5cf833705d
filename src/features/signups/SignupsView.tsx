import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { fromPromise } from 'xstate';
import { signupsMachine } from '../../../machines/signups.machine';
import * as sel from '../../../machines/signups.selectors';
import { selectDraft } from '../../../machines/confirmAction.selectors';
import type { ClanEvent } from '../../../contract/event';
import { BALANCE_TEAMS_MAX, SIGNUP_NOTE_MAX, WOM_METRICS, eventTakesSignups, type ListedSignup, type WomMetric } from '../../../contract/signupApi';
import * as signupsApi from '../../api/signups';
import * as eventsApi from '../../api/events';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { SIGNUP_TEXTS, WOM_METRIC_LABELS, scoreText, signupsStatusText, toggleBody } from './signupTexts';
import { DataTable } from '../../ui/DataTable';

/** The calls of the Sign-ups view (docs/server.md §16), replaceable in tests. */
export interface SignupsEffects {
  fetchSignups: typeof signupsApi.fetchListedSignups;
  signUp: typeof signupsApi.signUp;
  withdrawSignup: typeof signupsApi.withdrawSignup;
  saveScore: typeof signupsApi.saveScore;
  uploadScores: typeof signupsApi.uploadScores;
  startWomFetch: typeof signupsApi.startWomFetch;
  fetchWomProgress: typeof signupsApi.fetchWomProgress;
  proposeTeams: typeof signupsApi.proposeTeams;
  applyProposal: typeof signupsApi.applyProposal;
  updateEvent: typeof eventsApi.updateEvent;
}

/** The real calls. */
export const liveSignupsEffects: SignupsEffects = { ...signupsApi, fetchSignups: signupsApi.fetchListedSignups, updateEvent: eventsApi.updateEvent };

/** The signed-in user as the view needs them: their id and IGNs. */
export interface SignupViewer {
  id: number;
  igns: { id: number; ign: string }[];
}

type SignupsRef = ReturnType<typeof useActorRef<typeof signupsMachine>>;

interface SignUpDraft {
  ignId: string;
  wantsLeader: boolean;
  note: string;
}
interface ScoreDraft {
  score: string;
}
interface FileDraft {
  file: File | null;
}
interface WomDraft {
  metric: WomMetric;
}
interface ToggleDraft {
  closeAt: string;
}

/**
 * The Sign-ups view of an event (docs/client.md §13; docs/server.md §16), open to every clan
 * member from the event list: whether sign-ups are open, 'Sign Up' (IGN, 'I would lead a team', a
 * note) and the list of who signed up, with Withdraw for one's own sign-up while open. Managers
 * also open or close sign-ups, set scores (by hand, 'Import Scores (CSV)', 'Fetch from Wise Old
 * Man' with its progress), see free agents, and 'Balance Teams': the proposal with each team's
 * total and the spread shows before anything changes, then 'Apply'. The list and the balance are
 * the signups chart; each dialog is a confirmAction flow. `onEventChanged` reloads the event
 * after opening or closing sign-ups.
 */
export function SignupsView({
  clanId,
  event,
  isManager,
  viewer,
  onBack,
  onEventChanged,
  effects = liveSignupsEffects,
}: {
  clanId: number;
  event: ClanEvent;
  isManager: boolean;
  viewer: SignupViewer | null;
  onBack: () => void;
  onEventChanged: () => void;
  effects?: SignupsEffects;
}) {
  const eventId = event.id;
  const logic = useMemo(
    () =>
      signupsMachine.provide({
        actors: {
          loadSignups: fromPromise(() => effects.fetchSignups(clanId, eventId)),
          proposeTeams: fromPromise(({ input }) => effects.proposeTeams(clanId, eventId, input.teamCount)),
          applyProposal: fromPromise(({ input }) => effects.applyProposal(clanId, eventId, input.proposal)),
          loadWomProgress: fromPromise(() => effects.fetchWomProgress(clanId, eventId)),
        },
      }),
    [clanId, eventId, effects],
  );
  const chart = useActorRef(logic);
  const reload = () => chart.send({ type: 'signups.reload' });
  const signups = useSelector(chart, sel.selectSignups);
  const firstLoad = useSelector(chart, sel.selectFirstLoad);
  const failed = useSelector(chart, sel.selectLoadFailed);
  const error = useSelector(chart, sel.selectSignupsError);
  const message = useSelector(chart, sel.selectMessage);
  const phase = useSelector(chart, sel.selectPhase);

  // As the server decides (docs/server.md §16): open, before the close time and before the game is in progress.
  const accepting = eventTakesSignups(event, Date.now());
  const mine = viewer ? signups.find((s) => s.user_id === viewer.id) ?? null : null;
  const firstIgn = viewer?.igns[0]?.id ?? 0;

  const signUp = useConfirmAction<SignUpDraft, Nothing>({
    closed: { draft: { ignId: '', wantsLeader: false, note: '' }, subject: {} },
    perform: async ({ draft }) => {
      const s = await effects.signUp(clanId, eventId, { osrs_ign_id: Number(draft.ignId), wants_leader: draft.wantsLeader, note: draft.note });
      return { message: SIGNUP_TEXTS.signedUp(s.ign) };
    },
    validate: (d) => (d.ignId ? null : SIGNUP_TEXTS.chooseIgn),
    onSucceeded: reload,
  });
  const withdraw = useConfirmAction<Nothing, { id: number; ign: string }>({
    closed: { draft: {}, subject: { id: 0, ign: '' } },
    perform: async ({ subject }) => {
      await effects.withdrawSignup(clanId, eventId, subject.id);
      return { message: SIGNUP_TEXTS.withdrawn(subject.ign) };
    },
    onSucceeded: reload,
  });
  const score = useConfirmAction<ScoreDraft, { id: number; ign: string }>({
    closed: { draft: { score: '' }, subject: { id: 0, ign: '' } },
    perform: async ({ draft, subject }) => {
      const s = await effects.saveScore(clanId, eventId, subject.id, draft.score.trim() === '' ? null : Number(draft.score));
      return { message: SIGNUP_TEXTS.scoreSaved(s.ign, s.score) };
    },
    validate: (d) => (d.score.trim() === '' || (Number.isFinite(Number(d.score)) && Number(d.score) >= 0 && Number(d.score) <= 1_000_000) ? null : SIGNUP_TEXTS.badScore),
    onSucceeded: reload,
  });
  const importCsv = useConfirmAction<FileDraft, Nothing>({
    closed: { draft: { file: null }, subject: {} },
    perform: async ({ draft }) => {
      const answer = await effects.uploadScores(clanId, eventId, draft.file as File);
      return { message: SIGNUP_TEXTS.imported(answer), partial: answer.errors.length > 0 };
    },
    validate: (d) => (d.file ? null : SIGNUP_TEXTS.chooseFile),
    onSucceeded: reload,
  });
  const wom = useConfirmAction<WomDraft, Nothing>({
    closed: { draft: { metric: 'ehb+ehp' }, subject: {} },
    perform: async ({ draft }) => {
      const p = await effects.startWomFetch(clanId, eventId, draft.metric);
      return { message: SIGNUP_TEXTS.womStarted(p.total) };
    },
    // The progress is followed at once (and every 5 s while the fetch runs).
    onSucceeded: () => chart.send({ type: 'wom.check' }),
  });
  // The subject keeps what was asked (open or close), so the dialog's title stays while the result
  // shows even after the reloaded event has turned over.
  const toggle = useConfirmAction<ToggleDraft, { opening: boolean }>({
    closed: { draft: { closeAt: '' }, subject: { opening: true } },
    perform: async ({ draft, subject }) => {
      await effects.updateEvent(clanId, eventId, toggleBody({ ...event, signups_open: !subject.opening }, draft.closeAt));
      return { message: subject.opening ? SIGNUP_TEXTS.opened : SIGNUP_TEXTS.closed };
    },
    onSucceeded: onEventChanged,
  });
  const opening = useSelector(toggle, (s) => s.context.subject.opening);

  return (
    <section className="signups-view stack" data-testid="signups-view" data-phase={phase}>
      <div className="toolbar">
        <button type="button" className="btn" onClick={onBack}>
          Back to Events
        </button>
        <h2 className="toolbar__title">Sign-ups: {event.name}</h2>
      </div>
      <Notice tone={accepting ? 'success' : 'info'} testId="signups-status">
        {signupsStatusText(event, accepting)}
      </Notice>
      <div className="row row--wrap">
        {viewer && !mine && accepting && (
          <button type="button" className="btn btn--primary" onClick={() => signUp.send({ type: 'confirm.open', draft: { ignId: firstIgn ? String(firstIgn) : '', wantsLeader: false, note: '' } })}>
            Sign Up
          </button>
        )}
        {isManager && (
          <button type="button" className="btn" onClick={() => toggle.send({ type: 'confirm.open', subject: { opening: !event.signups_open } })}>
            {event.signups_open ? 'Close Sign-ups' : 'Open Sign-ups'}
          </button>
        )}
      </div>
      {message && (
        <Notice tone={message.tone} testId="signups-message">
          {message.text}
        </Notice>
      )}
      {failed && <LoadFailed error={error} onRetry={reload} />}
      {firstLoad ? <Spinner text="Loading sign-ups..." /> : !failed && <SignupTable signups={signups} viewerId={viewer?.id ?? null} isManager={isManager} accepting={accepting} withdraw={withdraw} score={score} />}
      {isManager && !failed && !firstLoad && <ManagerTools chart={chart} signups={signups} importCsv={importCsv} wom={wom} />}

      <ConfirmDialog actor={signUp} title="Sign Up" confirmLabel="Sign Up" processingText="Signing up...">
        <SignUpFields actor={signUp} igns={viewer?.igns ?? []} />
      </ConfirmDialog>
      <ConfirmDialog actor={withdraw} title="Withdraw Sign-up" confirmLabel="Withdraw" processingText="Withdrawing..." danger>
        <WithdrawQuestion actor={withdraw} />
      </ConfirmDialog>
      <ConfirmDialog actor={score} title="Set Score" confirmLabel="Save Score" processingText="Saving score...">
        <ScoreFields actor={score} />
      </ConfirmDialog>
      <ConfirmDialog actor={importCsv} title="Import Scores (CSV)" confirmLabel="Import Scores" processingText="Importing scores...">
        <FileField actor={importCsv} />
      </ConfirmDialog>
      <ConfirmDialog actor={wom} title="Fetch from Wise Old Man" confirmLabel="Start Fetch" processingText="Starting...">
        <WomFields actor={wom} />
      </ConfirmDialog>
      <ConfirmDialog actor={toggle} title={opening ? SIGNUP_TEXTS.openTitle : SIGNUP_TEXTS.closeTitle} confirmLabel={opening ? SIGNUP_TEXTS.openTitle : SIGNUP_TEXTS.closeTitle} processingText="Saving...">
        <p>{opening ? SIGNUP_TEXTS.openQuestion : SIGNUP_TEXTS.closeQuestion}</p>
        {opening && <CloseAtField actor={toggle} />}
      </ConfirmDialog>
    </section>
  );
}

/** Who signed up: IGN, member, would lead, note, score, team or free agent, and the row's actions. */
function SignupTable({
  signups,
  viewerId,
  isManager,
  accepting,
  withdraw,
  score,
}: {
  signups: ListedSignup[];
  viewerId: number | null;
  isManager: boolean;
  accepting: boolean;
  withdraw: ConfirmActionRef<Nothing, { id: number; ign: string }>;
  score: ConfirmActionRef<ScoreDraft, { id: number; ign: string }>;
}) {
  if (signups.length === 0) return <p className="table__empty">{SIGNUP_TEXTS.none}</p>;
  return (
    <DataTable className="table data-table signups-table cards-sm" columns={['IGN', 'Member', 'Would lead', 'Note', 'Score', 'Team', 'Actions']} label="Sign-ups">
      {signups.map((s) => {
        const canWithdraw = isManager || (s.user_id === viewerId && accepting);
        return (
          <tr key={s.id}>
            <th scope="row">{s.ign}</th>
            <td data-label="Member">{s.username}</td>
            <td data-label="Would lead">{s.wants_leader ? 'Yes' : 'No'}</td>
            <td data-label="Note" className="signups-table__note">{s.note}</td>
            <td data-label="Score">{scoreText(s)}</td>
            <td data-label="Team">{s.team_id === null ? 'Free agent' : (s.team_name ?? 'On a team')}</td>
            <td className="cards-sm__actions">
              <div className="row">
                {isManager && (
                  <button type="button" className="btn btn--small" onClick={() => score.send({ type: 'confirm.open', subject: { id: s.id, ign: s.ign }, draft: { score: s.score === null ? '' : String(s.score) } })}>
                    Set Score
                  </button>
                )}
                {canWithdraw && (
                  <button type="button" className="btn btn--small btn--danger" onClick={() => withdraw.send({ type: 'confirm.open', subject: { id: s.id, ign: s.ign } })}>
                    Withdraw
                  </button>
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </DataTable>
  );
}

/** The managers' tools: scores (CSV, Wise Old Man and its progress), free agents, Balance Teams and the proposal. */
function ManagerTools({
  chart,
  signups,
  importCsv,
  wom,
}: {
  chart: SignupsRef;
  signups: ListedSignup[];
  importCsv: ConfirmActionRef<FileDraft, Nothing>;
  wom: ConfirmActionRef<WomDraft, Nothing>;
}) {
  const busy = useSelector(chart, sel.selectBusy);
  const proposal = useSelector(chart, sel.selectProposal);
  const proposing = useSelector(chart, sel.selectProposing);
  const applying = useSelector(chart, sel.selectApplying);
  const progress = useSelector(chart, sel.selectWom);
  const [teamCount, setTeamCount] = useState('2');
  const countId = useId();
  const free = signups.filter((s) => s.team_id === null);
  const ignOf = new Map(signups.map((s) => [s.id, s.ign]));
  const count = Number(teamCount);
  const countOk = Number.isInteger(count) && (count === 0 || (count >= 2 && count <= BALANCE_TEAMS_MAX));
  return (
    <div className="stack signups-tools">
      <h3>Scores</h3>
      <div className="row row--wrap">
        <button type="button" className="btn" onClick={() => importCsv.send({ type: 'confirm.open', draft: { file: null } })}>
          Import Scores (CSV)
        </button>
        <button type="button" className="btn" onClick={() => wom.send({ type: 'confirm.open', draft: { metric: 'ehb+ehp' } })}>
          Fetch from Wise Old Man
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => chart.send({ type: 'wom.check' })}>
          Check Progress
        </button>
      </div>
      {progress && (
        <div data-testid="wom-progress">
          <p>{SIGNUP_TEXTS.womProgress(progress)}</p>
          {progress.errors.length > 0 && (
            <ul className="signups-tools__errors">
              {progress.errors.map((e, i) => (
                <li key={i}>
                  {e.ign}: {e.error}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <h3>Free agents</h3>
      <p data-testid="free-agents">{signups.length === 0 ? SIGNUP_TEXTS.noSignupsYet : free.length === 0 ? SIGNUP_TEXTS.noFreeAgents : free.map((s) => s.ign).join(', ')}</p>
      <h3>Balance Teams</h3>
      <div className="row row--wrap">
        <label className="field" htmlFor={countId}>
          <span className="field__label">Teams (0 fills the existing teams)</span>
          <input id={countId} className="input input--narrow" type="number" min={0} max={BALANCE_TEAMS_MAX} value={teamCount} onChange={(e) => setTeamCount(e.target.value)} />
        </label>
        <button type="button" className="btn btn--primary" disabled={busy || !countOk || free.length === 0} onClick={() => chart.send({ type: 'balance.request', teamCount: count })}>
          Balance Teams
        </button>
      </div>
      {proposing && <Spinner text="Balancing teams..." />}
      {proposal && (
        <div className="stack" data-testid="proposal">
          <p>
            <strong>Spread: {proposal.spread}</strong> {SIGNUP_TEXTS.spreadNote}
          </p>
          {proposal.teams.some((t) => t.leader_signup_id === null) && (
            <div className="notice notice--warning" role="status" data-testid="leader-warnings">
              {proposal.teams.filter((t) => t.leader_signup_id === null).map((t) => (
                <p key={t.name}>{SIGNUP_TEXTS.noLeader(t.name)}</p>
              ))}
            </div>
          )}
          <DataTable className="table data-table signups-table cards-sm" columns={['Team', 'Members', 'Leader', 'Total']} label="Proposed teams">
            {proposal.teams.map((t, i) => (
              <tr key={t.name}>
                <th scope="row">
                  {t.name}
                  {t.team_id === null ? ' (new)' : ''}
                </th>
                <td data-label="Members">{t.signup_ids.map((id) => ignOf.get(id) ?? `#${id}`).join(', ')}</td>
                <td data-label="Leader">
                  <select
                    className="input"
                    aria-label={SIGNUP_TEXTS.leaderLabel(t.name)}
                    disabled={applying}
                    value={t.leader_signup_id === null ? '' : String(t.leader_signup_id)}
                    onChange={(e) => chart.send({ type: 'balance.leader', team: i, signupId: e.target.value === '' ? null : Number(e.target.value) })}
                  >
                    <option value="">{SIGNUP_TEXTS.noLeaderOption}</option>
                    {t.signup_ids.map((id) => (
                      <option key={id} value={String(id)}>
                        {ignOf.get(id) ?? `#${id}`}
                      </option>
                    ))}
                  </select>
                </td>
                <td data-label="Total">{t.total_score}</td>
              </tr>
            ))}
          </DataTable>
          <div className="row">
            <button type="button" className="btn btn--primary" disabled={applying} onClick={() => chart.send({ type: 'balance.apply' })}>
              {applying ? 'Applying...' : 'Apply'}
            </button>
            <button type="button" className="btn" disabled={applying} onClick={() => chart.send({ type: 'balance.cancel' })}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function SignUpFields({ actor, igns }: { actor: ConfirmActionRef<SignUpDraft, Nothing>; igns: { id: number; ign: string }[] }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <div className="stack">
      <label className="field" htmlFor={`${id}-ign`}>
        <span className="field__label">IGN</span>
        <select id={`${id}-ign`} className="input" value={draft.ignId} onChange={(e) => actor.send({ type: 'confirm.change', field: 'ignId', value: e.target.value })}>
          <option value="">Choose an IGN</option>
          {igns.map((i) => (
            <option key={i.id} value={String(i.id)}>
              {i.ign}
            </option>
          ))}
        </select>
      </label>
      <label className="field field--inline">
        <input type="checkbox" checked={draft.wantsLeader} onChange={(e) => actor.send({ type: 'confirm.change', field: 'wantsLeader', value: e.target.checked })} />
        <span>I would lead a team</span>
      </label>
      <label className="field" htmlFor={`${id}-note`}>
        <span className="field__label">Note</span>
        <textarea id={`${id}-note`} className="input" maxLength={SIGNUP_NOTE_MAX} value={draft.note} onChange={(e) => actor.send({ type: 'confirm.change', field: 'note', value: e.target.value })} />
      </label>
    </div>
  );
}

function WithdrawQuestion({ actor }: { actor: ConfirmActionRef<Nothing, { id: number; ign: string }> }) {
  const ign = useSelector(actor, (s) => s.context.subject.ign);
  return <p>{SIGNUP_TEXTS.withdrawQuestion(ign)}</p>;
}

function ScoreFields({ actor }: { actor: ConfirmActionRef<ScoreDraft, { id: number; ign: string }> }) {
  const draft = useSelector(actor, selectDraft);
  const ign = useSelector(actor, (s) => s.context.subject.ign);
  const id = useId();
  return (
    <label className="field" htmlFor={id}>
      <span className="field__label">Score of {ign} (empty for none)</span>
      <input id={id} className="input" inputMode="decimal" value={draft.score} onChange={(e) => actor.send({ type: 'confirm.change', field: 'score', value: e.target.value })} />
    </label>
  );
}

/** A modal's one field under its help text: the help paragraph, then the control labelled `label` (rendered by `control` with its id). */
function HelpedField({ help, label, control }: { help: string; label: string; control: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="stack">
      <p>{help}</p>
      <label className="field" htmlFor={id}>
        <span className="field__label">{label}</span>
        {control(id)}
      </label>
    </div>
  );
}

function FileField({ actor }: { actor: ConfirmActionRef<FileDraft, Nothing> }) {
  return (
    <HelpedField
      help={SIGNUP_TEXTS.csvHelp}
      label="CSV file"
      control={(id) => <input id={id} type="file" accept=".csv,text/csv" onChange={(e) => actor.send({ type: 'confirm.change', field: 'file', value: e.target.files?.[0] ?? null })} />}
    />
  );
}

function CloseAtField({ actor }: { actor: ConfirmActionRef<ToggleDraft, { opening: boolean }> }) {
  const draft = useSelector(actor, selectDraft);
  const id = useId();
  return (
    <label className="field" htmlFor={id}>
      <span className="field__label">Close sign-ups at (UTC, optional)</span>
      <input id={id} className="input" type="datetime-local" value={draft.closeAt} onChange={(e) => actor.send({ type: 'confirm.change', field: 'closeAt', value: e.target.value })} />
    </label>
  );
}

function WomFields({ actor }: { actor: ConfirmActionRef<WomDraft, Nothing> }) {
  const draft = useSelector(actor, selectDraft);
  return (
    <HelpedField
      help={SIGNUP_TEXTS.womHelp}
      label="Score from"
      control={(id) => (
        <select id={id} className="input" value={draft.metric} onChange={(e) => actor.send({ type: 'confirm.change', field: 'metric', value: e.target.value as WomMetric })}>
          {WOM_METRICS.map((m) => (
            <option key={m} value={m}>
              {WOM_METRIC_LABELS[m]}
            </option>
          ))}
        </select>
      )}
    />
  );
}

