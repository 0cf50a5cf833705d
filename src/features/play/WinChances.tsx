import { useActorRef, useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { fromPromise, type ActorRefFrom } from 'xstate';
import type { ForecastAnswer } from '../../../contract/lobby';
import { winChanceText } from '../../../contract/forecastView';
import { forecastMachine } from '../../../machines/forecast.machine';
import { selectChanceHistory, selectForecast } from '../../../machines/forecast.selectors';
import * as sel from '../../../machines/gamePlay.selectors';
import { useNearScreen } from '../../base/useNearScreen';
import type { GamePlayRef } from './gamePlayRef';

/** The uPlot chart loads only once there are chances to draw (the spectator page's first load does not carry uPlot). */
const WinChanceChart = lazy(() => import('../forecast/WinChanceChart'));

export type ForecastRef = ActorRefFrom<typeof forecastMachine>;

/**
 * The forecast chart of a game screen (docs/game-rules.md §14), told each new version of the game
 * shown (so while a roll moment plays the chances wait for the pawn, like the positions). Null
 * without `load` (a screen that shows no chances).
 */
export function useForecast(actor: GamePlayRef, load: ((gameId: number) => Promise<ForecastAnswer>) | undefined): ForecastRef | null {
  const gameId = useSelector(actor, (s) => s.context.gameId);
  const logic = useMemo(
    () => forecastMachine.provide({ actors: { loadForecast: fromPromise(({ input }: { input: { gameId: number; version: number } }) => (load ? load(input.gameId) : Promise.reject(new Error('No forecast.')))) } }),
    [load],
  );
  const forecast = useActorRef(logic, { input: { gameId } });
  const version = useSelector(actor, (s) => s.context.game?.version ?? 0);
  useEffect(() => {
    if (load && version > 0) forecast.send({ type: 'game.versionSeen', version });
  }, [forecast, load, version]);
  return load ? forecast : null;
}

/** A team's chance to win beside its position ('Win 34%'), once a forecast is in. */
export function WinChance({ forecast, teamId }: { forecast: ForecastRef; teamId: number }) {
  const chance = useSelector(forecast, (s) => selectForecast(s)?.teams.find((t) => t.team_id === teamId)?.win_chance ?? null);
  if (chance === null) return null;
  return (
    <span className="team-positions__chance" data-testid="win-chance" data-chance={chance} title="Chance to win, from 10,000 simulated continuations">
      Win {winChanceText(chance)}
    </span>
  );
}

/**
 * 'Win chances': how each team's chance moved with each roll since the screen opened (a uPlot
 * line per team in its colour, loaded lazily), shown once a forecast is in. The chart is loaded
 * and drawn once the panel comes near the screen (useNearScreen): below the board on a phone, it
 * does not take the main thread during the page's first load.
 */
export function WinChancesPanel({ forecast, actor }: { forecast: ForecastRef; actor: GamePlayRef }) {
  const history = useSelector(forecast, selectChanceHistory);
  const states = useSelector(actor, sel.selectTeamStates);
  const teams = useMemo(() => (states ?? []).map((t) => ({ team_id: t.team_id, team_name: t.team_name, team_color: t.team_color })), [states]);
  const [panel, setPanel] = useState<HTMLElement | null>(null);
  const near = useNearScreen(panel);
  if (history.length === 0 || teams.length === 0) return null;
  const waiting = <p className="muted">Loading the chart…</p>;
  return (
    <section ref={setPanel} className="panel win-chances" aria-labelledby="win-chances-title" data-testid="win-chances" data-points={history.length}>
      <h2 id="win-chances-title" className="game-panel__title">Win chances</h2>
      {near ? (
        <Suspense fallback={waiting}>
          <WinChanceChart history={history} teams={teams} />
        </Suspense>
      ) : (
        waiting
      )}
      <p className="muted win-chances__note">From 10,000 simulated continuations of the board after each roll; the chart starts when this page was opened.</p>
    </section>
  );
}
