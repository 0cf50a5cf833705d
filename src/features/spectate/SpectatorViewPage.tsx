import { useParams } from 'react-router-dom';
import { routeId, spectatorScreenEffects, type GameScreenEffects } from '../play/effects';
import { GameNotFound, GameScreen } from '../play/GameScreen';

const PREVIOUS = { to: '/games/spectate', label: 'Spectate Games' };

/**
 * The public spectator view at /games/spectate/{gameId} (docs/client.md §1; docs/game-rules.md §11; docs/server.md
 * §3): the same board, Team Positions and Live Game Log as the play screen, live over
 * the socket, with no actions, no revert counts and no sign-in. `effects` replaces the public
 * REST load, socket and confetti in tests.
 */
// The router loads this page with a lazy import (src/app/routes.tsx).
// ts-unused-exports:disable-next-line
export function SpectatorViewPage({ effects = spectatorScreenEffects }: { effects?: GameScreenEffects }) {
  const gameId = routeId(useParams().gameId);
  if (!gameId) {
    return <GameNotFound previous={PREVIOUS} />;
  }
  return <GameScreen key={gameId} gameId={gameId} audience="spectator" effects={effects} previous={PREVIOUS} />;
}
