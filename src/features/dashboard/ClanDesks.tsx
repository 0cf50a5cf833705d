import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { ClanDesk, GettingStarted } from '../../../contract/clanDesk';
import type { ClanMembership } from '../../../contract/user';
import { clanDesksMachine } from '../../../machines/clanDesks.machine';
import { selectClanDesks, selectClanDesksError, selectClanDesksLoading } from '../../../machines/clanDesks.selectors';
import { LoadFailed } from '../../ui/LoadFailed';
import { clanManagePath, gamePlayPath, type ClanView } from '../../base/paths';
import { StatusBadge } from '../play/StatusBadge';

type ClanDesksRef = ActorRefFrom<typeof clanDesksMachine>;

/** The clanDesks chart of a manager's dashboard, loading `managed` with `loadDesks`. */
export function useClanDesks(managed: readonly ClanMembership[], loadDesks: (clans: readonly ClanMembership[]) => Promise<ClanDesk[]>): ClanDesksRef {
  const logic = useMemo(() => clanDesksMachine.provide({ actors: { loadDesks: fromPromise(() => loadDesks(managed)) } }), [managed, loadDesks]);
  return useActorRef(logic);
}

/** The getting-started steps in order: the text, whether done, and where it is done (docs/server.md §3). */
function stepsOf(steps: GettingStarted): { text: string; done: boolean; view: ClanView }[] {
  const eventView = (view: 'teams' | 'game'): ClanView =>
    steps.eventId === null ? { tab: 'events', events: { view: 'list' } } : { tab: 'events', events: { view, eventId: steps.eventId } };
  return [
    { text: 'Import tasks', done: steps.tasks, view: { tab: 'tasks' } },
    { text: 'Create an event', done: steps.event, view: { tab: 'events', events: { view: 'list' } } },
    { text: "Build the event's teams", done: steps.teams, view: eventView('teams') },
    { text: 'Create the game', done: steps.game, view: eventView('game') },
  ];
}

/**
 * The getting-started steps of each managed clan that has had no game yet (docs/game-rules.md §1
 * dashboard; docs/server.md §3 for where each is done): import tasks, create an event, build its teams,
 * create the game; each links to its place in Manage Clan and is ticked once done. Nothing once
 * every clan has had a game, or while loading.
 */
export function GettingStartedList({ desks }: { desks: ClanDesksRef }) {
  const items = useSelector(desks, selectClanDesks);
  const starting = items.filter((d) => d.steps !== null);
  if (starting.length === 0) return null;
  return (
    <>
      {starting.map((desk) => (
        <section key={desk.clanId} className="panel getting-started" aria-labelledby={`getting-started-${desk.clanId}`} data-testid="getting-started">
          <h2 id={`getting-started-${desk.clanId}`}>Get {desk.name} ready for its first game</h2>
          <ol className="getting-started__steps">
            {stepsOf(desk.steps!).map((step, i) => (
              <li key={step.text} className={`getting-started__step${step.done ? ' getting-started__step--done' : ''}`} data-done={step.done}>
                <span className="getting-started__mark" aria-hidden="true">{step.done ? '✓' : i + 1}</span>
                <Link to={clanManagePath(desk.clanId, step.view)}>{step.text}</Link>
                {step.done && <span className="visually-hidden"> (done)</span>}
              </li>
            ))}
          </ol>
        </section>
      ))}
    </>
  );
}

/**
 * The Clan Games widget (docs/game-rules.md §1 dashboard, for managers): the READY, in-progress
 * and paused games of the clans they manage, each with its status and links to watch it (the play
 * screen) and to manage it (Manage Clan → Events → the game). A failed load says so with Retry.
 */
export function ClanGames({ desks }: { desks: ClanDesksRef }) {
  const items = useSelector(desks, selectClanDesks);
  const loading = useSelector(desks, selectClanDesksLoading);
  const error = useSelector(desks, selectClanDesksError);
  const several = items.length > 1;
  const games = items.flatMap((d) => d.games.map((g) => ({ ...g, clanId: d.clanId, clanName: d.name })));
  return (
    <article className="widget panel" data-testid="clan-games">
      <h2>Clan Games</h2>
      <p>The live and ready games of the clans you manage.</p>
      {loading ? (
        <p className="muted my-games__note">Loading your clans&apos; games...</p>
      ) : error ? (
        <LoadFailed error={error} onRetry={() => desks.send({ type: 'desks.reload' })} />
      ) : games.length === 0 ? (
        <p className="muted my-games__note">No live games in your clans.</p>
      ) : (
        <ul className="my-games">
          {games.map((g) => (
            <li key={g.game_id} className="my-games__item clan-games__item">
              <span className="my-games__link">
                {g.event_name}
                {several && <span className="muted"> · {g.clanName}</span>}
              </span>
              <StatusBadge status={g.status} />
              <span className="clan-games__links">
                <Link to={gamePlayPath(g.clanId, g.event_id, g.game_id)} aria-label={`Watch ${g.event_name}`}>Watch</Link>
                <Link to={clanManagePath(g.clanId, { tab: 'events', events: { view: 'game', eventId: g.event_id } })} aria-label={`Manage ${g.event_name}`}>
                  Manage
                </Link>
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
