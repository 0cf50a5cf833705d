import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { invitePageMachine } from '../../../machines/invitePage.machine';
import * as sel from '../../../machines/invitePage.selectors';
import { selectIsBusy, selectIsReady, selectIsSignedOut, selectNeedsOnboarding } from '../../../machines/session.selectors';
import { INVITE_PAGE_TEXTS, invitePath, type InviteViewer } from '../../../contract/invite';
import { acceptInvite, fetchInvite } from '../../api/invites';
import { SessionContext } from '../../base/session';
import { useSelectors } from '../../base/useSelectors';
import { clanManagePath } from '../../base/paths';
import { dateTime } from '../../base/timeFormat';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { Spinner } from '../../ui/Spinner';
import type { SignInState } from '../auth/returnPath';

/** The calls of the invite page (docs/server.md §18); tests give fakes. */
export interface InvitePageEffects {
  loadInvite: typeof fetchInvite;
  acceptInvite: typeof acceptInvite;
}

const liveEffects: InvitePageEffects = { loadInvite: fetchInvite, acceptInvite };

/** What the page tells a visitor who must sign in or link an IGN before joining. */
const BEFORE_JOINING: Record<Exclude<InviteViewer, 'ready'>, string> = {
  signedOut: 'You sign in with Discord first; this page then opens again to join.',
  needsIgn: 'You link your in-game names first; this page then opens again to join.',
};

/**
 * /invite/{code}, the page an invite link opens (docs/client.md §15; docs/server.md §18), in the
 * public layout: anyone sees the clan it leads to (name, members, until when) and 'Join {clan}'.
 * A signed-out visitor goes through sign-in (the login page returns here), one without an IGN
 * through onboarding (which returns here), and presses Join again; a ready one joins as Member.
 * An expired, used-up or unknown invite shows the server's text. Waits for the session to settle
 * first, then runs the invitePage chart for this code and viewer; `effects` are the calls.
 */
export function InvitePage({ effects = liveEffects }: { effects?: InvitePageEffects }) {
  const { code = '' } = useParams();
  const busy = SessionContext.useSelector(selectIsBusy);
  const signedOut = SessionContext.useSelector(selectIsSignedOut);
  const needsIgn = SessionContext.useSelector(selectNeedsOnboarding);
  const ready = SessionContext.useSelector(selectIsReady);
  const viewer: InviteViewer | null = signedOut ? 'signedOut' : needsIgn ? 'needsIgn' : ready ? 'ready' : null;
  if (busy || viewer === null) return <Spinner text="Checking your session..." />;
  return <InviteFlow key={`${code}:${viewer}`} code={code} viewer={viewer} effects={effects} />;
}

function InviteFlow({ code, viewer, effects }: { code: string; viewer: InviteViewer; effects: InvitePageEffects }) {
  const navigate = useNavigate();
  const session = SessionContext.useActorRef();
  const logic = useMemo(() => {
    const back = { from: invitePath(code) } satisfies SignInState;
    return invitePageMachine.provide({
      actors: {
        loadInvite: fromPromise(({ input }) => effects.loadInvite(input.code)),
        acceptInvite: fromPromise(({ input }) => effects.acceptInvite(input.code)),
      },
      actions: {
        goToSignIn: () => void navigate('/', { state: back }),
        goToOnboarding: () => void navigate('/onboarding', { state: back }),
        membershipChanged: () => session.send({ type: 'session.reload' }),
      },
    });
  }, [code, effects, navigate, session]);
  const flow = useActorRef(logic, { input: { code, viewer } });
  const { phase, invite, membership, error, canJoin } = useSelectors(flow, {
    phase: sel.selectInvitePhase,
    invite: sel.selectInvitePreview,
    membership: sel.selectInviteMembership,
    error: sel.selectInviteError,
    canJoin: sel.canJoinInvite,
  });

  return (
    <section className="panel panel--narrow invite-page" aria-labelledby="invite-title" data-testid="invite-page" data-phase={phase}>
      {phase === 'loading' && <Spinner text="Loading the invite..." />}
      {phase === 'failed' && (
        <>
          <h1 id="invite-title">Clan invite</h1>
          <LoadFailed error={error} onRetry={() => flow.send({ type: 'invite.reload' })} />
        </>
      )}
      {phase === 'unavailable' && (
        <>
          <h1 id="invite-title">Clan invite</h1>
          <Notice tone="error" testId="invite-unavailable">{error}</Notice>
          <p className="muted">Ask a manager of the clan for a new invite link.</p>
          <Link className="btn" to="/">Go to the home page</Link>
        </>
      )}
      {invite && phase !== 'unavailable' && phase !== 'joined' && (
        <>
          <p className="muted invite-page__lead">You are invited to join</p>
          <h1 id="invite-title" className="invite-page__clan">{invite.clan.name}</h1>
          <p className="muted" data-testid="invite-facts">
            {invite.clan.member_count === 1 ? '1 member' : `${invite.clan.member_count} members`} · this invite works until{' '}
            <time dateTime={invite.expires_at}>{dateTime(invite.expires_at)}</time>
          </p>
          {viewer !== 'ready' && <p data-testid="invite-before">{BEFORE_JOINING[viewer]}</p>}
          <button type="button" className="btn btn--primary btn--large" disabled={!canJoin} onClick={() => flow.send({ type: 'invite.join' })}>
            {INVITE_PAGE_TEXTS.join(invite.clan.name)}
          </button>
          {phase === 'joining' && <Spinner text="Joining..." />}
          {error && <Notice tone="error" testId="invite-error">{error}</Notice>}
        </>
      )}
      {phase === 'joined' && membership && (
        <>
          <h1 id="invite-title" className="invite-page__clan">{membership.name}</h1>
          <Notice tone="success" testId="invite-joined">{INVITE_PAGE_TEXTS.joined(membership.name)}</Notice>
          <div className="row">
            <Link className="btn btn--primary" to={clanManagePath(membership.clan_id)}>Open {membership.name}</Link>
            <Link className="btn" to="/dashboard">Go to Dashboard</Link>
          </div>
        </>
      )}
    </section>
  );
}
