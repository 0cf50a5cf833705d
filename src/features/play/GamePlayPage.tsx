import { useMemo } from 'react';
import { useLocation, useParams } from 'react-router-dom';
import { memberScreenEffects, routeId, type GameScreenEffects } from './effects';
import { GameNotFound, GameScreen } from './GameScreen';
import { previousPageOf } from '../../base/paths';
import { SessionContext } from '../../base/session';
import { sameClans, selectManagedClans } from '../../../machines/session.selectors';

/**
 * The game play screen at /games/clan/{clanId}/events/{eventId}/game/{gameId} (docs/client.md §9; docs/game-rules.md §6, §11; docs/server.md
 * §3): the members' live board with the Game Action panel.
 * The breadcrumb goes back to Clan Management (the Manage Game view it came from) when the
 * navigation carried that origin, else to
 * the Game Lobby. A manager of the clan (the session's memberships) may ask for any team's Wise Old
 * Man check (docs/server.md §17). `effects` replaces the REST load, socket and confetti in tests.
 */
export function GamePlayPage({ effects }: { effects?: GameScreenEffects }) {
  const params = useParams();
  const location = useLocation();
  const clanId = routeId(params.clanId);
  const eventId = routeId(params.eventId);
  const gameId = routeId(params.gameId);
  const previous = previousPageOf(location.state, params.clanId, params.eventId);
  const managed = SessionContext.useSelector(selectManagedClans, sameClans);
  const screenEffects = useMemo(
    () => effects ?? (clanId && eventId ? memberScreenEffects(clanId, eventId) : null),
    [effects, clanId, eventId],
  );
  if (!clanId || !eventId || !gameId || !screenEffects) {
    return <GameNotFound previous={previous} />;
  }
  return <GameScreen key={`${clanId}/${eventId}/${gameId}`} gameId={gameId} audience="member" effects={screenEffects} previous={previous} manages={managed.some((m) => m.clan_id === clanId)} />;
}
