import { useParams } from 'react-router-dom';
import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { Notice } from '../../ui/Notice';
import { routeId, spectatorScreenEffects, type GameScreenEffects } from '../play/effects';
import { GameScreen } from '../play/GameScreen';

const PREVIOUS = { to: '/games/spectate', label: 'Spectate Games' };

/**
 * The public spectator view at /games/spectate/{gameId} (product-spec sections 2, 6 and 7
 * "Spectating"): the same board, Team Positions and Live Game Log as the play screen, live over
 * the socket, with no actions, no revert counts and no sign-in. `effects` replaces the public
 * REST load, socket and confetti in tests.
 */
// The router loads this page with a lazy import (src/app/routes.tsx).
// ts-unused-exports:disable-next-line
export function SpectatorViewPage({ effects = spectatorScreenEffects }: { effects?: GameScreenEffects }) {
  const gameId = routeId(useParams().gameId);
  if (!gameId) {
    return (
      <div className="game-page">
        <Breadcrumb previous={PREVIOUS} current="Game" />
        <section className="panel panel--narrow">
          <Notice tone="error" testId="game-load-error">{GAME_VIEW_MESSAGES.notFound}</Notice>
        </section>
      </div>
    );
  }
  return <GameScreen key={gameId} gameId={gameId} audience="spectator" effects={effects} previous={PREVIOUS} />;
}
