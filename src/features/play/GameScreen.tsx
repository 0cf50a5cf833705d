import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useDeferredValue, useEffect, useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import * as sel from '../../../machines/gamePlay.selectors';
import { selectIsLive } from '../../../machines/liveGame.selectors';
import type { liveGameMachine } from '../../../machines/liveGame.machine';
import { revealApp } from '../../base/firstDrawing';
import { resultsPath } from '../../base/paths';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { Notice } from '../../ui/Notice';
import { NotFoundPage } from '../../ui/NotFoundPage';
import { Spinner } from '../../ui/Spinner';
import { gameScreenLogic, type GameScreenEffects } from './effects';
import { prefersReducedMotion } from './confetti';
import { GameBoard } from './GameBoard';
import { ActionPanel, Confetti, ConnectionBadge, DicePanel, GameLog, TeamPositions, WinnerMoment } from './GamePanels';
import type { GamePlayRef } from './gamePlayRef';
import { boardSizeText, StatusBadge } from './StatusBadge';
import { useForecast, WinChancesPanel } from './WinChances';

/** The viewer's team tasks with the proof dialog load for members only (spectators never need them). */
const TeamTasks = lazy(() => import('./ProofPanel').then((m) => ({ default: m.TeamTasks })));

/** Who looks at the game: a member (play screen, with actions and revert counts) or a spectator. */
export type Audience = 'member' | 'spectator';

/** The game page when the address names no game: the breadcrumb and the not-found message. */
export function GameNotFound({ previous }: { previous: { to: string; label: string } }) {
  return <NotFoundPage className="game-page" previous={previous} current="Game" message={GAME_VIEW_MESSAGES.notFound} testId="game-load-error" />;
}

/**
 * One game screen, shared by the play screen and the public spectator view (docs/client.md
 * §9: "The spectator view is the same without actions or revert counts"): header
 * with event type and name, status badge, board size and the live connection badge; the board;
 * a sidebar with the Game Action panel (members only), Team Positions, the dice commitment with
 * its Verify dice link (docs/game-rules.md §9) and the Live Game Log; the winner moment
 * (banner and podium) at the top of the sidebar (inside the Game Action panel for members) and
 * 15 s of confetti when the game finishes with a winner, shown once the winning pawn has arrived,
 * and once finished a View Results link to the game's results page. The header is one compact
 * band and the board is sized to the window's height on wide screens, so the whole board is in
 * view beside Roll Dice. The gamePlay chart runs here with the screen's effects; `effects` is
 * fixed for the screen's life. `manages`: the viewer is a manager of the game's clan, who may ask
 * for a Wise Old Man check of any team (Team Positions' 'Check now', docs/server.md §17).
 */
export function GameScreen({
  gameId,
  audience,
  effects,
  previous,
  manages = false,
}: {
  gameId: number;
  audience: Audience;
  effects: GameScreenEffects;
  previous: { to: string; label: string };
  manages?: boolean;
}) {
  const logic = useMemo(() => gameScreenLogic(effects), [effects]);
  const actor = useActorRef(logic, { input: { gameId, reducedMotion: prefersReducedMotion() } });
  const loading = useSelector(actor, sel.selectIsLoading);
  const loadError = useSelector(actor, sel.selectLoadError);
  const eventName = useSelector(actor, (s) => s.context.game?.event_name ?? null);
  const connection = useSelector(actor, sel.selectConnection) as ActorRefFrom<typeof liveGameMachine> | undefined;
  // The game's arrival re-renders this screen at once (a chart selector is
  // a synchronous store read), but the whole live game (board, sidebar, log) mounts in the deferred
  // render after it, which React splits into short slices instead of one long task.
  const shownName = useDeferredValue(eventName);
  // An error replaces the server's first drawing at once (the board, once drawn, does otherwise: GameBoard).
  useEffect(() => {
    if (loadError) revealApp();
  }, [loadError]);

  return (
    <div className="game-page">
      <Breadcrumb previous={previous} current={eventName ?? 'Game'} />
      {(loading || (eventName !== null && shownName === null)) && <Spinner text="Loading game details..." />}
      {loadError && (
        <section className="panel panel--narrow">
          <Notice tone="error" testId="game-load-error">{loadError}</Notice>
        </section>
      )}
      {shownName !== null && !loadError && <LiveGame actor={actor} audience={audience} effects={effects} connection={connection} manages={manages} />}
    </div>
  );
}

function LiveGame({
  actor,
  audience,
  effects,
  connection,
  manages,
}: {
  actor: GamePlayRef;
  audience: Audience;
  effects: GameScreenEffects;
  connection: ActorRefFrom<typeof liveGameMachine> | undefined;
  manages: boolean;
}) {
  const celebrating = useSelector(actor, sel.selectIsCelebrating);
  const forecast = useForecast(actor, effects.loadForecast);
  return (
    <>
      <GameHeader actor={actor} connection={connection} />
      {celebrating && <Confetti launch={effects.launchConfetti} />}
      <div className="game-layout">
        <div className="game-layout__board">
          <GameBoard actor={actor} />
        </div>
        <aside className="game-layout__side" aria-label="Game sidebar">
          {audience === 'spectator' && <WinnerMoment actor={actor} className="panel game-page__winner" />}
          {audience === 'member' && (connection ? <ConnectedActionPanel actor={actor} connection={connection} /> : <ActionPanel actor={actor} live={false} />)}
          {audience === 'member' && (
            <Suspense fallback={null}>
              <TeamTasks actor={actor} effects={effects.proof} />
            </Suspense>
          )}
          <TeamPositions actor={actor} showReverts={audience === 'member'} forecast={forecast} check={audience === 'member' && manages ? effects.proof?.checkProgress ?? null : null} />
          {forecast && <WinChancesPanel forecast={forecast} actor={actor} />}
          <DicePanel actor={actor} />
          <GameLog actor={actor} />
        </aside>
      </div>
    </>
  );
}

/** The game's header: event type, name and clan; status, board size, the connection and, once finished, 'View Results'. */
function GameHeader({ actor, connection }: { actor: GamePlayRef; connection: ActorRefFrom<typeof liveGameMachine> | undefined }) {
  const game = useSelector(actor, sel.selectGame)!;
  const finished = useSelector(actor, sel.selectIsFinished);
  return (
    <header className="panel game-header game-header--compact">
      <div className="game-header__titles">
        <p className="game-header__type">{game.event_type}</p>
        <h1 className="game-header__name">{game.event_name}</h1>
        <p className="game-header__clan muted">{game.clan_name}</p>
      </div>
      <div className="game-header__facts">
        <StatusBadge status={game.status} />
        <span className="game-header__size">Board: {boardSizeText(game.board_size)}</span>
        {connection && <ConnectionBadge connection={connection} />}
        {finished && (
          <Link className="btn btn--small btn--primary" to={resultsPath(game.id)}>
            View Results
          </Link>
        )}
      </div>
    </header>
  );
}

function ConnectedActionPanel({ actor, connection }: { actor: GamePlayRef; connection: ActorRefFrom<typeof liveGameMachine> }) {
  const live = useSelector(connection, selectIsLive);
  return <ActionPanel actor={actor} live={live} />;
}
