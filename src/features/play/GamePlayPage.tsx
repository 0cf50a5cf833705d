import { useMemo } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { GAME_VIEW_MESSAGES } from '../../../contract/game/viewTexts';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { Notice } from '../../ui/Notice';
import { memberScreenEffects, routeId, type GameScreenEffects } from './effects';
import { GameScreen } from './GameScreen';
import { previousPageOf } from './origin';

/**
 * The game play screen at /games/clan/{clanId}/events/{eventId}/game/{gameId} (product-spec
 * sections 2 "Game play screen", 4, 6 and 7): the members' live board with the Game Action panel.
 * The breadcrumb goes back to Clan Management when the navigation carried that origin, else to
 * the Game Lobby. `effects` replaces the REST load, socket and confetti in tests.
 */
export function GamePlayPage({ effects }: { effects?: GameScreenEffects }) {
  const params = useParams();
  const location = useLocation();
  const clanId = routeId(params.clanId);
  const eventId = routeId(params.eventId);
  const gameId = routeId(params.gameId);
  const previous = previousPageOf(location.state, params.clanId);
  const screenEffects = useMemo(
    () => effects ?? (clanId && eventId ? memberScreenEffects(clanId, eventId) : null),
    [effects, clanId, eventId],
  );
  if (!clanId || !eventId || !gameId || !screenEffects) {
    return (
      <div className="game-page">
        <Breadcrumb previous={previous} current="Game" />
        <section className="panel panel--narrow">
          <Notice tone="error" testId="game-load-error">{GAME_VIEW_MESSAGES.notFound}</Notice>
        </section>
      </div>
    );
  }
  return <GameScreen key={`${clanId}/${eventId}/${gameId}`} gameId={gameId} audience="member" effects={screenEffects} previous={previous} />;
}
