import { useActorRef, useSelector } from '@xstate/react';
import { useMemo, type FormEvent } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { onboardingMachine } from '../../../machines/onboarding.machine';
import * as sel from '../../../machines/onboarding.selectors';
import { SessionContext } from '../../base/session';
import { selectIsBusy, selectIsReady, selectIsSignedOut } from '../../../machines/session.selectors';
import { fetchClans, submitSetup } from '../../api/account';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import { CLAN_NAME_MAX, type ClanSummary } from '../../../contract/clan';
import { ONBOARDING_JOIN_POLICY_TEXTS } from '../../../contract/joins';
import { droppedIgns, droppedIgnsText } from '../../../contract/onboarding';
import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../../contract/user';

/** Effects of the onboarding chart, replaceable in tests. */
export interface OnboardingEffects {
  loadClans: () => Promise<ClanSummary[]>;
  submitSetup: typeof submitSetup;
}

const liveEffects: OnboardingEffects = { loadClans: fetchClans, submitSetup };

/**
 * /onboarding, Initial Setup (docs/client.md §1, §2; docs/game-rules.md §6, §13): step 1 IGNs, step 2 clan choice;
 * the Clan Member choice says what finishing does under each join policy (joined, request sent,
 * invitation needed: docs/server.md §18).
 * Signed-out users go to /; users who have IGNs (also once setup is done) to the page the
 * navigation state's `from` asked for (an invite link, docs/client.md §15), else /dashboard.
 */
export function OnboardingPage({ effects = liveEffects }: { effects?: OnboardingEffects }) {
  const returnTo = safeReturnPath((useLocation().state as { from?: string } | null)?.from) ?? DEFAULT_RETURN_PATH;
  const signedOut = SessionContext.useSelector(selectIsSignedOut);
  const ready = SessionContext.useSelector(selectIsReady);
  const busy = SessionContext.useSelector(selectIsBusy);
  if (signedOut) return <Navigate to="/" replace />;
  if (ready) return <Navigate to={returnTo} replace />;
  if (busy) return <Spinner text="Loading your account..." />;
  return <OnboardingFlow effects={effects} />;
}

function OnboardingFlow({ effects }: { effects: OnboardingEffects }) {
  const session = SessionContext.useActorRef();
  const logic = useMemo(
    () =>
      onboardingMachine.provide({
        actors: {
          loadClans: fromPromise(() => effects.loadClans()),
          submitSetup: fromPromise(({ input }) => effects.submitSetup(input)),
        },
        actions: { completed: () => session.send({ type: 'onboarding.completed' }) },
      }),
    [effects, session],
  );
  const ref = useActorRef(logic);
  const step = useSelector(ref, sel.selectStep);
  const error = useSelector(ref, sel.selectOnboardingError);
  if (step === 'done') return <Spinner text="Setting up your account..." />;
  return (
    <section className="panel panel--narrow onboarding">
      <h1>Initial Setup</h1>
      <ol className="steps" aria-label="Setup steps">
        <li className={step === 'igns' ? 'steps__item steps__item--active' : 'steps__item'} aria-current={step === 'igns' ? 'step' : undefined}>1. In-game names</li>
        <li className={step === 'clan' ? 'steps__item steps__item--active' : 'steps__item'} aria-current={step === 'clan' ? 'step' : undefined}>2. Clan</li>
      </ol>
      {step === 'igns' ? <IgnStep actor={ref} /> : <ClanStep actor={ref} />}
      {error && <Notice tone="error" testId="onboarding-error">{error}</Notice>}
      <p className="muted onboarding__switch">
        Not you?{' '}
        <button type="button" className="linklike" onClick={() => session.send({ type: 'session.logout' })}>
          Log out
        </button>
      </p>
    </section>
  );
}

type OnboardingRef = ReturnType<typeof useActorRef<typeof onboardingMachine>>;

function IgnStep({ actor }: { actor: OnboardingRef }) {
  const text = useSelector(actor, sel.selectIgnText);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'onboarding.next' });
  };
  return (
    <form onSubmit={submit} className="form">
      <label className="field">
        <span className="field__label">Your in-game names (IGNs), separated by commas</span>
        <input
          className="input"
          autoFocus
          value={text}
          placeholder="e.g. Zezima, Lynx Titan"
          onChange={(e) => actor.send({ type: 'ign.change', value: e.target.value })}
        />
        <span className="field__hint">IGNs are case-sensitive and must match the game exactly (1 to 12 characters each).</span>
      </label>
      <button type="submit" className="btn btn--primary">Continue to Clan Setup</button>
    </form>
  );
}

function ClanStep({ actor }: { actor: OnboardingRef }) {
  const role = useSelector(actor, sel.selectRole);
  const clanName = useSelector(actor, sel.selectClanName);
  const clanId = useSelector(actor, sel.selectClanId);
  const clans = useSelector(actor, sel.selectClans);
  const loadingClans = useSelector(actor, sel.selectClansLoading);
  const submitting = useSelector(actor, sel.selectSubmitting);
  const igns = useSelector(actor, sel.selectIgns);
  const dropped = droppedIgns(useSelector(actor, sel.selectIgnText), igns);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'onboarding.submit' });
  };
  return (
    <form onSubmit={submit} className="form">
      <p className="muted">Linking: <strong>{igns.join(', ')}</strong></p>
      {dropped.length > 0 && <Notice tone="warning" testId="onboarding-dropped">{droppedIgnsText(dropped)}</Notice>}
      <fieldset className="choices" disabled={submitting}>
        <legend className="field__label">Your clan</legend>
        <label className="choice">
          <input type="radio" name="clan-role" checked={role === 'Owner'} onChange={() => actor.send({ type: 'clan.roleSelect', role: 'Owner' })} />
          <span><strong>Clan Owner</strong>: register a new clan</span>
        </label>
        {role === 'Owner' && (
          <label className="field field--nested">
            <span className="field__label">Clan name</span>
            <input className="input" value={clanName} maxLength={CLAN_NAME_MAX} onChange={(e) => actor.send({ type: 'clan.nameChange', value: e.target.value })} />
          </label>
        )}
        <label className="choice">
          <input type="radio" name="clan-role" checked={role === 'Member'} onChange={() => actor.send({ type: 'clan.roleSelect', role: 'Member' })} />
          <span><strong>Clan Member</strong>: join an existing clan</span>
        </label>
        {role === 'Member' && (
          <div className="field field--nested">
            <label className="field__label" htmlFor="onboarding-clan">Clan</label>
            <select
              id="onboarding-clan"
              className="input"
              value={clanId ?? ''}
              disabled={loadingClans || clans.length === 0}
              onChange={(e) => actor.send({ type: 'clan.select', clanId: e.target.value ? Number(e.target.value) : null })}
            >
              {loadingClans ? (
                <option value="">Loading clans...</option>
              ) : clans.length === 0 ? (
                <option value="">No existing clans found. Choose another option.</option>
              ) : (
                <>
                  <option value="">Select a clan</option>
                  {clans.map((c) => (
                    <option key={c.id} value={c.id}>{c.name}</option>
                  ))}
                </>
              )}
            </select>
            <ul className="field__hint join-policy-hint" data-testid="join-policy-hint">
              {ONBOARDING_JOIN_POLICY_TEXTS.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          </div>
        )}
        <label className="choice">
          <input type="radio" name="clan-role" checked={role === 'None'} onChange={() => actor.send({ type: 'clan.roleSelect', role: 'None' })} />
          <span><strong>None</strong>: skip for now</span>
        </label>
      </fieldset>
      <div className="row">
        <button type="submit" className="btn btn--primary" disabled={submitting}>
          {submitting ? 'Saving...' : 'Finish Setup & Go to Dashboard'}
        </button>
        <button type="button" className="btn" disabled={submitting} onClick={() => actor.send({ type: 'onboarding.back' })}>
          Back to IGNs
        </button>
      </div>
    </form>
  );
}
