import { useSelector } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useRef, type CSSProperties } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { LogEntry, Winner } from '../../../contract/gameApi';
import { standingsOf } from '../../../contract/game/standings';
import type { GamePlayRef } from './gamePlayRef';
import type { ActionResult } from '../../../machines/confirmAction.machine';
import { useConfirmAction, type Nothing } from '../../ui/confirmAction';
import { Podium } from '../../ui/Podium';
import { GAME_ACTION_TEXTS, RELIEF_CONFIRM_TEXTS, REVERT_TEXTS } from './texts';
import * as sel from '../../../machines/gamePlay.selectors';
import type { bannerMachine } from '../../../machines/banner.machine';
import { isBannerFading, selectBannerMessage } from '../../../machines/banner.selectors';
import type { liveGameMachine } from '../../../machines/liveGame.machine';
import { selectConnectionState, selectReconnectAttempt, type ConnectionState } from '../../../machines/liveGame.selectors';
import { FadingNotice } from '../../ui/Notice';
import { prefersReducedMotion } from './confetti';
import { timeOnSquare } from '../../../contract/submission';
import { TaskStateBadge } from './TaskStateBadge';
import { ProgressBar } from './ProgressBar';
import { useNow } from '../../base/useNow';
import { Link } from 'react-router-dom';
import { verifyPath } from '../../base/paths';
import { logTime, warmTimeFormat } from '../../base/timeFormat';
import { useLogHold, type RollMomentRef } from './RollMoment';
import { RELIEF_VIEW_TEXTS, reliefButtonText } from '../../../contract/game/reliefView';
import { WinChance, type ForecastRef } from './WinChances';
import { isWomCheckable } from '../../../contract/progress';
import type { ProgressCheckOutcome } from '../../../machines/progressCheck.machine';

/** The revert confirmation with its dialog library, loaded when a Leader's panel first shows (RevertDialog.tsx). */
const RevertDialog = lazy(() => import('./RevertDialog').then((m) => ({ default: m.RevertDialog })));
/** The relief confirmation, from the same module. */
const ReliefDialog = lazy(() => import('./RevertDialog').then((m) => ({ default: m.ReliefDialog })));
/**
 * 'Check now' for a manager's Team Positions, taken from the members' proof panel module, which the
 * members' screen loads anyway (GameScreen's TeamTasks), so it costs no chunk of its own.
 */
const ProgressCheck = lazy(() => import('./ProofPanel').then((m) => ({ default: m.ProgressCheck })));

export type ConnectionRef = ActorRefFrom<typeof liveGameMachine>;
type MessageRef = ActorRefFrom<typeof bannerMachine>;

const CONNECTION_LABELS: Record<ConnectionState, string> = {
  connecting: 'Connecting…',
  connected: 'Live',
  reconnecting: 'Reconnecting…',
  disconnected: 'Offline',
};

/**
 * The live socket's state as a small badge (docs/server.md §3): Live,
 * Connecting…, Reconnecting… (attempt n) or Offline with a Reconnect button.
 */
export function ConnectionBadge({ connection }: { connection: ConnectionRef }) {
  const state = useSelector(connection, selectConnectionState);
  const attempt = useSelector(connection, selectReconnectAttempt);
  return (
    <span className="connection" data-testid="connection-state" data-state={state}>
      <span className={`connection__badge connection__badge--${state}`} role="status" title={state === 'reconnecting' && attempt > 0 ? `Attempt ${attempt}` : undefined}>
        <span className="connection__dot" aria-hidden="true" />
        {CONNECTION_LABELS[state]}
      </span>
      {state === 'disconnected' && (
        <button type="button" className="btn btn--small" onClick={() => connection.send({ type: 'connection.retry' })}>
          Reconnect
        </button>
      )}
    </span>
  );
}

/** The winner banner (docs/client.md §1: the winner name is shown when a game finishes with a winner). */
function WinnerBanner({ winners }: { winners: Winner[] }) {
  return (
    <div className="winner-banner" role="status" data-testid="winner-banner">
      <span className="winner-banner__crown" aria-hidden="true" />
      <span>
        Winner: <strong>{winners.map((w) => w.name).join(' & ')}</strong>
      </span>
    </div>
  );
}

/**
 * The winner moment, the one place the winner is named on the game screen (docs/client.md
 * §1): the banner in the winner's colour and the final standings podium
 * (contract standingsOf: winner first, then by square). Nothing until the game shown has winners,
 * so while the winning roll's pawn walks (the gamePlay chart shows the game from before the roll)
 * nothing gives the result away.
 */
export function WinnerMoment({ actor, className }: { actor: GamePlayRef; className: string }) {
  const winners = useSelector(actor, sel.selectWinners);
  const teams = useSelector(actor, sel.selectTeamStates);
  const finished = useSelector(actor, sel.selectIsFinished);
  const standings = useMemo(() => standingsOf(teams ?? [], winners), [teams, winners]);
  if (!finished || !winners || winners.length === 0) return null;
  const color = /^#[0-9a-fA-F]{6}$/.test(winners[0].color) ? winners[0].color : undefined;
  return (
    <div className={`game-winner ${className}`} style={color ? ({ '--winner': color } as CSSProperties) : undefined} data-winner-color={color}>
      <WinnerBanner winners={winners} />
      <Podium standings={standings} />
    </div>
  );
}

/**
 * Confetti over the page while mounted (the gamePlay chart keeps it mounted for 15 s, docs/client.md
 * §12); nothing under prefers-reduced-motion.
 */
export function Confetti({ launch }: { launch: (canvas: HTMLCanvasElement) => () => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const reduced = prefersReducedMotion();
  useEffect(() => {
    if (reduced || !canvas.current) return undefined;
    return launch(canvas.current);
  }, [launch, reduced]);
  if (reduced) return null;
  return <canvas ref={canvas} className="confetti-canvas" data-testid="confetti" aria-hidden="true" />;
}

/**
 * Asks the gamePlay chart for the revert and settles with its outcome (the chart emits
 * `revert.applied` or `revert.refused`): the confirm modal's call. Refused at once when the chart
 * does not take the request (no revert left, a roll moment playing).
 */
function revertLastTurn(actor: GamePlayRef): Promise<ActionResult> {
  return new Promise((resolve, reject) => {
    const applied = actor.on('revert.applied', () => {
      stop();
      resolve({ message: REVERT_TEXTS.done });
    });
    const refused = actor.on('revert.refused', (e) => {
      stop();
      reject(new Error(e.message));
    });
    const stop = () => {
      applied.unsubscribe();
      refused.unsubscribe();
    };
    if (!actor.getSnapshot().can({ type: 'game.revert' })) {
      stop();
      reject(new Error(REVERT_TEXTS.notNow));
      return;
    }
    actor.send({ type: 'game.revert' });
  });
}

/**
 * The Game Action panel (docs/client.md §1; docs/game-rules.md §6, §11): its title names the viewer's role
 * ('Roll Dice for Your Team' for a team Leader, 'Leader Action Required' for other members,
 * 'Join a Team to Roll' for users on no team). Rolling and reverting are offered only while
 * in-progress and only to a Leader; revert only when position > 1 and revert_count <
 * max_reverts_allowed, set apart below Roll Dice and confirmed in a modal (confirmAction chart)
 * before it spends a revert. A finished game with winners shows the winner moment (banner and
 * podium, the only place the winner is named); other statuses 'Game is {status}. No actions
 * available.' A refused roll shows the server's message, a refused revert shows it in the modal.
 * While a Leader can act, the panel sticks to the bottom of a phone screen (game-actions--sticky) as
 * one compact bar (its title for screen readers only, Roll Dice and Revert Last Turn on one row), so
 * the board's bottom rows and the die show above it.
 */
export function ActionPanel({ actor, live }: { actor: GamePlayRef; live: boolean }) {
  const role = useSelector(actor, sel.selectViewerRole);
  const status = useSelector(actor, sel.selectStatus);
  const playable = useSelector(actor, sel.selectIsPlayable);
  const finished = useSelector(actor, sel.selectIsFinished);
  const winners = useSelector(actor, sel.selectWinners);
  const canRoll = useSelector(actor, sel.selectCanRoll);
  const canRevert = useSelector(actor, sel.selectCanRevert);
  const rolling = useSelector(actor, sel.selectIsRolling);
  const leader = useSelector(actor, sel.selectLeaderEntry);
  const revertsLeft = useSelector(actor, sel.selectLeaderRevertsLeft);
  const message = useSelector(actor, sel.selectMessage);
  const rollGate = useSelector(actor, sel.selectRollGate);
  const revert = useConfirmAction<Nothing, Nothing>({ closed: { draft: {}, subject: {} }, perform: () => revertLastTurn(actor) });
  const title = role === 'leader' ? GAME_ACTION_TEXTS.leaderTitle : role === 'member' ? GAME_ACTION_TEXTS.memberTitle : GAME_ACTION_TEXTS.noTeamTitle;

  let body;
  if (finished && winners && winners.length > 0) body = <WinnerMoment actor={actor} className="game-actions__winner" />;
  else if (!playable) body = <p className="game-actions__note" data-testid="action-note">{GAME_ACTION_TEXTS.noActions(status ?? '')}</p>;
  else if (role === 'member') body = <p className="game-actions__note" data-testid="action-note">{GAME_ACTION_TEXTS.memberOnly}</p>;
  else if (role === 'none') body = <p className="game-actions__note" data-testid="action-note">{GAME_ACTION_TEXTS.noTeam}</p>;
  else
    body = (
      <>
        {leader && (
          <p className="game-actions__who">
            Leading <strong>{leader.name}</strong> as {leader.player_ign}
          </p>
        )}
        <button
          type="button"
          className="btn btn--primary btn--large game-actions__roll"
          disabled={!canRoll || !live}
          aria-describedby={rollGate ? 'roll-gate' : undefined}
          onClick={() => actor.send({ type: 'game.roll' })}
        >
          {rolling ? 'Rolling...' : 'Roll Dice'}
        </button>
        {rollGate && (
          <p id="roll-gate" className="game-actions__note game-actions__gate" data-testid="roll-gate">
            {rollGate}
          </p>
        )}
        {!live && <p className="game-actions__note muted">Waiting for the live connection…</p>}
        <div className="game-actions__revert">
          {revertsLeft !== null && <p className="game-actions__reverts muted">Reverts left: {revertsLeft}</p>}
          <button type="button" className="btn btn--small" disabled={!canRevert || !live} onClick={() => revert.send({ type: 'confirm.open' })}>
            {REVERT_TEXTS.button}
          </button>
        </div>
        <ReliefButton actor={actor} live={live} teamName={leader?.name ?? 'Your team'} />
        <Suspense fallback={null}>
          <RevertDialog actor={revert} teamName={leader?.name ?? 'Your team'} revertsLeft={revertsLeft} />
        </Suspense>
      </>
    );

  return (
    <section className={playable && role === 'leader' ? 'panel game-actions game-actions--sticky' : 'panel game-actions'} aria-labelledby="game-actions-title">
      <h2 id="game-actions-title" className="game-panel__title">{title}</h2>
      {body}
      {message && <ActionMessage message={message} />}
    </section>
  );
}

/**
 * The Leader's 'Ask for a new task' (docs/game-rules.md §15): shown while relief is on and the led
 * team's task is open or denied; disabled with the wait left ('Ask for a new task in 2 h 14 min',
 * ticking each 30 s) until the team has been on its square relief_after_hours, while a roll moment
 * plays, or off the live connection. A click asks first (a confirmAction modal: a new task is
 * spent for good), then sends `game.relief`; the server's refusal shows as the panel's action
 * message and the substitute as the team's task. While relief is on it says what is left of the
 * team's new tasks ('New tasks left: 1 of 2', when the game carries relief_count).
 */
function ReliefButton({ actor, live, teamName }: { actor: GamePlayRef; live: boolean; teamName: string }) {
  const allowedAt = useSelector(actor, sel.selectReliefAllowedAt);
  const can = useSelector(actor, sel.selectCanAskRelief);
  const asking = useSelector(actor, sel.selectIsAskingRelief);
  const maxPerTeam = useSelector(actor, sel.selectReliefMaxPerTeam);
  const left = useSelector(actor, sel.selectLeaderReliefsLeft);
  const confirm = useConfirmAction<Nothing, Nothing>({ closed: { draft: {}, subject: {} }, perform: () => askForNewTask(actor) });
  const now = useNow();
  // The count shows while relief is on, also when the task is not one relief replaces.
  const count = left === null ? null : <p className="game-actions__reverts muted" data-testid="reliefs-left">{RELIEF_CONFIRM_TEXTS.left(left, maxPerTeam)}</p>;
  if (allowedAt === null) return count;
  const waiting = allowedAt > now;
  return (
    <div className="game-actions__relief">
      {count}
      <button type="button" className="btn btn--small" data-testid="relief-button" disabled={!can || !live || waiting} onClick={() => confirm.send({ type: 'confirm.open' })}>
        {asking ? RELIEF_VIEW_TEXTS.asking : reliefButtonText(allowedAt, now)}
      </button>
      <Suspense fallback={null}>
        <ReliefDialog actor={confirm} teamName={teamName} maxPerTeam={maxPerTeam} />
      </Suspense>
    </div>
  );
}

/**
 * The relief modal's call: sends `game.relief` to the gamePlay chart, refused at once when the
 * chart does not take it (a roll moment playing, the task no longer open). The substitute arrives
 * with the game's next update; a refusal shows as the panel's action message.
 */
function askForNewTask(actor: GamePlayRef): Promise<ActionResult> {
  if (!actor.getSnapshot().can({ type: 'game.relief' })) return Promise.reject(new Error(RELIEF_CONFIRM_TEXTS.notNow));
  actor.send({ type: 'game.relief' });
  return Promise.resolve({ message: RELIEF_CONFIRM_TEXTS.done });
}

/** The server's refusal of a roll or revert, timed by the banner chart: fades at 4 s, gone at 5 s. */
function ActionMessage({ message }: { message: MessageRef }) {
  const shown = useSelector(message, selectBannerMessage);
  const fading = useSelector(message, isBannerFading);
  return <FadingNotice message={shown} fading={fading} testId="action-error" />;
}

/**
 * Team Positions (docs/client.md §1): every team's colour, name and square, furthest first,
 * with its task state and time on the square (docs/server.md §9) and its team total as a bar
 * when its task has one (docs/server.md §17);
 * the viewer's teams starred; revert counts only on the members' screen (not for spectators);
 * with a `forecast`, each team's chance to win beside its square (docs/game-rules.md §14).
 * With `check` (the viewer manages the clan: docs/server.md §17 lets managers ask for any team),
 * 'Check now' under the bar of every other team on a Wise Old Man total while the game is in
 * progress (the viewer's own teams have it on their task card): the same ProgressCheck, one
 * progressCheck chart per team.
 */
export function TeamPositions({
  actor,
  showReverts,
  forecast = null,
  check = null,
}: {
  actor: GamePlayRef;
  showReverts: boolean;
  forecast?: ForecastRef | null;
  /** 'Check now' of a team's Wise Old Man total (POST .../teams/{teamId}/progress/check); null: no button. */
  check?: ((gameId: number, teamId: number) => Promise<ProgressCheckOutcome>) | null;
}) {
  const teams = useSelector(actor, sel.selectTeamStates) ?? [];
  const mine = useSelector(actor, sel.selectUserTeams);
  const max = useSelector(actor, (s) => s.context.game?.max_reverts_allowed ?? 0);
  const squares = useSelector(actor, (s) => s.context.game?.board_squares);
  const gameId = useSelector(actor, (s) => s.context.game?.id ?? null);
  const inProgress = useSelector(actor, sel.selectIsPlayable);
  const now = useNow();
  const ordered = [...teams].sort((a, b) => b.current_position - a.current_position || a.team_id - b.team_id);
  return (
    <section className="panel positions-panel" aria-labelledby="team-positions-title">
      <h2 id="team-positions-title" className="game-panel__title">Team Positions</h2>
      {ordered.length === 0 ? (
        <p className="muted">No teams in this game yet.</p>
      ) : (
        <ol className="team-positions__list">
          {ordered.map((t) => {
            const starred = mine.some((m) => m.id === t.team_id);
            const revertCount = (t as { revert_count?: number }).revert_count;
            return (
              <li key={t.team_id} className="team-positions__item" data-testid="team-position" data-team={t.team_name} data-position={t.current_position} data-task-state={t.task_state}>
                <span className="team-positions__swatch" style={{ background: t.team_color || '#cccccc' }} aria-hidden="true" />
                <span className="team-positions__name">
                  {t.team_name}
                  {starred && <span className="star" aria-label="(your team)">{'\u00a0'}★</span>}
                </span>
                <span className="team-positions__square">
                  Square {t.current_position}
                  {forecast && <WinChance forecast={forecast} teamId={t.team_id} />}
                </span>
                <span className="team-positions__task">
                  <TaskStateBadge state={t.task_state} /> <span className="muted" data-testid="time-on-square">{timeOnSquare(t.current_position, t.square_since, now)}</span>
                  {t.progress && <ProgressBar progress={t.progress} teamName={t.team_name} />}
                  {check && gameId !== null && inProgress && !starred && t.progress && isWomCheckable(t, squares?.[t.current_position - 1]?.auto_rule) && (
                    <Suspense fallback={null}>
                      <ProgressCheck teamId={t.team_id} teamName={t.team_name} checkedAt={t.progress.updated_at} check={(teamId) => check(gameId, teamId)} />
                    </Suspense>
                  )}
                </span>
                {showReverts && typeof revertCount === 'number' && (
                  <span className="team-positions__reverts muted">
                    Reverts: {revertCount}/{max}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

// A game screen reached by a link (not a first load) starts the locale data's warm-up here.
warmTimeFormat();

/**
 * The game's dice commitment (docs/game-rules.md §9), shown from creation so players can
 * note it before the first roll, with a link to the 'Verify dice' view. Nothing until the game is
 * loaded.
 */
export function DicePanel({ actor }: { actor: GamePlayRef }) {
  const commitment = useSelector(actor, sel.selectDiceCommitment);
  const gameId = useSelector(actor, (s) => s.context.game?.id ?? null);
  if (commitment === null || gameId === null) return null;
  return (
    <section className="panel dice-panel" aria-labelledby="dice-panel-title">
      <h2 id="dice-panel-title" className="game-panel__title">Fair dice</h2>
      <p>
        Dice commitment: <code className="dice-hex" data-testid="game-dice-commitment">{commitment}</code>
      </p>
      <p>
        <Link to={verifyPath(gameId)}>Verify dice</Link>
      </p>
    </section>
  );
}

/**
 * The Live Game Log (docs/client.md §1, §12): the last 100 entries, newest first, in a
 * focusable scrolling region. While the roll moment plays, the entries of the roll wait until the
 * pawn arrives (the rollMoment chart's log head), so the log never tells the roll before the die.
 */
export function GameLog({ actor }: { actor: GamePlayRef }) {
  const log: LogEntry[] = useSelector(actor, sel.selectLog);
  const rollMoment = useSelector(actor, sel.selectRollMoment);
  return rollMoment ? <HeldGameLog log={log} rollMoment={rollMoment} /> : <GameLogList log={log} holdAfter={null} />;
}

function HeldGameLog({ log, rollMoment }: { log: LogEntry[]; rollMoment: RollMomentRef }) {
  return <GameLogList log={log} holdAfter={useLogHold(rollMoment)} />;
}

function GameLogList({ log, holdAfter }: { log: LogEntry[]; holdAfter: number | null }) {
  const shown = holdAfter === null ? log : log.filter((e) => e.id <= holdAfter);
  return (
    <section className="panel game-log" aria-labelledby="game-log-title">
      <h2 id="game-log-title" className="game-panel__title">Live Game Log</h2>
      {shown.length === 0 ? (
        <p className="muted">No moves yet.</p>
      ) : (
        <div className="game-log__scroll" tabIndex={0} role="region" aria-label="Live Game Log entries">
          <ol className="game-log__list" data-testid="game-log">
            {shown.map((e) => (
              <li key={e.id} className="game-log__entry">
                <time className="game-log__time" dateTime={e.timestamp}>{logTime(e.timestamp)}</time>
                <span className="game-log__team">
                  <span className="game-log__swatch" style={{ background: e.team_color ?? 'transparent' }} aria-hidden="true" />
                  {e.team_name}
                </span>
                <span className="game-log__message">{e.message}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
