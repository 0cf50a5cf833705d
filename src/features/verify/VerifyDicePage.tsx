import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import { fromPromise } from 'xstate';
import { verifyHistory, type DiceReport, type RollCheck } from '../../../contract/diceVerify';
import { historyCsvPath, type GameHistory } from '../../../contract/history';
import { countsText } from '../../../contract/game/counts';
import { diceVerifyMachine } from '../../../machines/diceVerify.machine';
import * as sel from '../../../machines/diceVerify.selectors';
import { fetchGameHistory } from '../../api/history';
import { resultsPath } from '../../base/paths';
import { Breadcrumb } from '../../ui/Breadcrumb';
import { LoadFailed } from '../../ui/LoadFailed';
import { Notice } from '../../ui/Notice';
import { NotFoundPage } from '../../ui/NotFoundPage';
import { Spinner } from '../../ui/Spinner';
import { routeId } from '../play/effects';
import { TableHead } from '../../ui/TableHead';

/** Texts of the verify view that tests read. */
export const VERIFY_TEXTS = {
  sealed: 'The seed stays secret until the game finishes. Note the commitment now: once the seed is revealed, this page checks it against the commitment and recomputes every roll.',
  noRolls: 'No rolls yet.',
  allVerified: (n: number) => `All ${n} roll${n === 1 ? '' : 's'} verified.`,
  someFailed: (failed: number, n: number) => `${failed} of ${n} roll${n === 1 ? '' : 's'} not verified.`,
  commitmentMatches: 'The SHA-256 of the seed matches the commitment.',
  commitmentDiffers: 'The SHA-256 of the seed does not match the commitment: no roll can be verified.',
  badId: 'Game not found.',
} as const;

const RESULT_TEXT: Record<RollCheck['result'], string> = { verified: 'Verified', failed: 'Not verified', pending: 'Waiting for the seed' };

/** The check a page runs: load the public history, then recompute it in the browser. */
async function checkGame(gameId: number, load: (gameId: number) => Promise<GameHistory>): Promise<DiceReport> {
  return verifyHistory(await load(gameId));
}

/**
 * The 'Verify dice' view at /games/{gameId}/verify (docs/game-rules.md §9),
 * public like the spectator view: the game's dice commitment from the start; once the seed is
 * revealed (the game finished), whether its SHA-256 is the commitment and, for every roll, the
 * die recomputed here with WebCrypto (contract dieFor) beside the die the history states, marked
 * Verified or Not verified (with '· reverted' for a roll a revert undid), under the game's counts
 * ('44 rolls, 1 reverted · 43 turns processed', contract/game/counts); and the method, step by
 * step, for checking by hand. On a phone each roll is a two-line row that fits the width; the
 * relief table scrolls inside its own box, which takes the keyboard's focus. Loading, empty
 * (no rolls) and error (with Retry) states come from the diceVerify chart. `loadHistory` replaces
 * the GET /api/public/game/{gameId}/history call in tests.
 */
// The router loads this page with a lazy import (src/app/routes.tsx).
// ts-unused-exports:disable-next-line
export function VerifyDicePage({ loadHistory = fetchGameHistory }: { loadHistory?: (gameId: number) => Promise<GameHistory> }) {
  const gameId = routeId(useParams().gameId);
  const previous = { to: gameId ? `/games/spectate/${gameId}` : '/games/spectate', label: gameId ? 'Game' : 'Spectate Games' };
  if (!gameId) return <NotFoundPage className="verify-page" previous={previous} current="Verify dice" message={VERIFY_TEXTS.badId} testId="verify-error" />;
  return <VerifyDice key={gameId} gameId={gameId} loadHistory={loadHistory} previous={previous} />;
}

function VerifyDice({ gameId, loadHistory, previous }: { gameId: number; loadHistory: (gameId: number) => Promise<GameHistory>; previous: { to: string; label: string } }) {
  const logic = useMemo(() => diceVerifyMachine.provide({ actors: { verifyDice: fromPromise(({ input }) => checkGame(input.gameId, loadHistory)) } }), [loadHistory]);
  const actor = useActorRef(logic, { input: { gameId } });
  const checking = useSelector(actor, sel.selectIsChecking);
  const error = useSelector(actor, sel.selectVerifyError);
  const report = useSelector(actor, sel.selectReport);
  const reload = () => actor.send({ type: 'verify.reload' });
  return (
    <div className="verify-page">
      <Breadcrumb previous={previous} current="Verify dice" />
      <section className="panel" aria-labelledby="verify-title">
        <h1 id="verify-title">Verify dice</h1>
        {report && (
          <p className="muted">
            {report.game.event_name} · {report.game.clan_name}
          </p>
        )}
        <p>
          Every die of this game comes from a secret seed fixed before the first roll. <a href="#method">How to check it by hand</a>
        </p>
        {checking && !report && <Spinner text="Checking the dice..." />}
        {error && <LoadFailed error={error} onRetry={reload} />}
        {report && <Report report={report} checking={checking} onReload={reload} gameId={gameId} />}
      </section>
      <Method />
    </div>
  );
}

function Report({ report, checking, onReload, gameId }: { report: DiceReport; checking: boolean; onReload: () => void; gameId: number }) {
  const n = report.rolls.length;
  return (
    <div className="verify-report" data-testid="verify-report" data-phase={report.phase}>
      <dl className="verify-facts">
        <dt>Dice commitment</dt>
        <dd>
          <code className="dice-hex" data-testid="dice-commitment">{report.commitment}</code>
        </dd>
        <dt>Seed</dt>
        <dd>{report.seed === null ? <span className="muted">Not revealed yet</span> : <code className="dice-hex" data-testid="dice-seed">{report.seed}</code>}</dd>
      </dl>
      {report.phase === 'sealed' ? (
        <Notice tone="info" testId="verify-summary">{VERIFY_TEXTS.sealed}</Notice>
      ) : (
        <>
          <Notice tone={report.commitmentMatches ? 'success' : 'error'} testId="verify-commitment">
            {report.commitmentMatches ? VERIFY_TEXTS.commitmentMatches : VERIFY_TEXTS.commitmentDiffers}
          </Notice>
          {n > 0 && (
            <Notice tone={report.failed === 0 ? 'success' : 'error'} testId="verify-summary">
              {report.failed === 0 ? VERIFY_TEXTS.allVerified(n) : VERIFY_TEXTS.someFailed(report.failed, n)}
            </Notice>
          )}
        </>
      )}
      <div className="row">
        <button type="button" className="btn btn--small" onClick={onReload} disabled={checking}>
          {checking ? 'Checking...' : 'Check again'}
        </button>
        <a className="btn btn--small" href={historyCsvPath(gameId)} download>
          Download the moves (CSV)
        </a>
      </div>
      {n === 0 ? <p className="muted" data-testid="verify-empty">{VERIFY_TEXTS.noRolls}</p> : <RollTable report={report} />}
      {report.reliefs.length > 0 && <ReliefTable report={report} />}
      <p className="row">
        <Link to={`/games/spectate/${gameId}`}>Back to the game</Link>
        {report.phase === 'checked' && <Link to={resultsPath(gameId)}>Results</Link>}
      </p>
    </div>
  );
}

/**
 * Every roll of the report, checked, under the game's counts: a table, and on a phone one row of
 * two lines per roll (roll, team and result; then the move and both dice, each named), so nothing
 * is cut off or scrolls sideways.
 */
function RollTable({ report }: { report: DiceReport }) {
  return (
    <>
      <p className="verify-counts" data-testid="verify-counts">
        <strong>{countsText(report.counts)}</strong>. A reverted roll is listed too: its die came from the seed all the same.
      </p>
      <div className="table-scroll verify-table-scroll verify-rolls">
        <table className="data-table verify-table">
          <caption className="visually-hidden">Every roll of the game, checked</caption>
          <TableHead columns={['Roll', 'Team', 'Move', 'Die shown', 'Die from the seed', 'Result']} />
          <tbody>
            {report.rolls.map((r, i) => (
              <tr
                key={`${r.roll_index}-${i}`}
                className={r.reverted ? 'verify-row--reverted' : undefined}
                data-testid="dice-roll"
                data-roll={r.roll_index ?? ''}
                data-result={r.result}
                data-reverted={r.reverted}
              >
                <td>{r.roll_index ?? '?'}</td>
                <td>
                  <span className="game-log__swatch" style={{ background: r.team.color }} aria-hidden="true" /> {r.team.name}
                </td>
                <td data-label="Move">
                  {r.from} → {r.to}
                </td>
                <td data-label="Die shown">{r.die ?? '?'}</td>
                <td data-label="Die from the seed">{r.expected ?? '—'}</td>
                {/* A roll a revert undid reads 'Verified · reverted': its die is checked all the same. */}
              <td className={`verify-result verify-result--${r.result}`}>
                {RESULT_TEXT[r.result]}
                {r.reverted && <span className="verify-result__reverted"> · reverted</span>}
              </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * The substitute tasks of relief (docs/game-rules.md §15), each checked from the seed: which of the
 * candidates relief k of the team picks, and whether it is the task the team got.
 */
function ReliefTable({ report }: { report: DiceReport }) {
  return (
    <section aria-labelledby="verify-reliefs-title" className="verify-reliefs">
      <h2 id="verify-reliefs-title">New tasks (relief)</h2>
      {report.phase === 'checked' && (
        <Notice tone={report.reliefsFailed === 0 ? 'success' : 'error'} testId="verify-reliefs-summary">
          {report.reliefsFailed === 0
            ? `All ${report.reliefs.length} new tasks were drawn as the seed says.`
            : `${report.reliefsFailed} of ${report.reliefs.length} new tasks do not match the seed.`}
        </Notice>
      )}
      {/* Focusable, so a keyboard can scroll it sideways where the screen is narrow. */}
      <div className="table-scroll verify-table-scroll" tabIndex={0} role="region" aria-label="New tasks, checked (scrolls sideways on a narrow screen)">
        <table className="data-table verify-table">
          <caption className="visually-hidden">Every new task relief drew, checked</caption>
          <TableHead columns={['Team', 'Relief', 'Square', 'New task', 'Candidates', 'Result']} />
          <tbody>
            {report.reliefs.map((r, i) => (
              <tr key={`${r.team.team_id}-${r.k}-${i}`} data-testid="relief-draw" data-result={r.result}>
                <td>
                  <span className="game-log__swatch" style={{ background: r.team.color }} aria-hidden="true" /> {r.team.name}
                </td>
                <td>{r.k}</td>
                <td>{r.square}</td>
                <td>{r.description}</td>
                <td>{r.candidates}</td>
                <td className={`verify-result verify-result--${r.result}`}>{RESULT_TEXT[r.result]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="muted">
        Relief k of team t computes HMAC-SHA256 with the seed and the message <code>{'{game_id}:relief:{team_id}:{k}'}</code>; its
        32 bytes read as eight 32-bit big-endian numbers, the first below the largest multiple of the candidate count picks the
        candidate at that number modulo the count, the candidates ordered by task id.
      </p>
    </section>
  );
}

/** The method (docs/game-rules.md §9), as a player can follow it by hand with any SHA-256 and HMAC tool. */
function Method() {
  return (
    <section className="panel verify-method" id="method" aria-labelledby="method-title">
      <h2 id="method-title">How the dice work, and how to check them by hand</h2>
      <ol>
        <li>
          When the game is created (and again at every reset) the server draws a secret seed of 32 random bytes. From the start,
          the game shows its <strong>commitment</strong>: the SHA-256 of the seed bytes, in lowercase hex. Note it down before
          the first roll.
        </li>
        <li>
          Rolls are numbered k = 1, 2, 3, ... over all teams in the order they happen. Reverts do not take a number.
        </li>
        <li>
          For roll k, compute HMAC-SHA256 with the seed bytes as the key and the text <code>{'{game_id}:{k}'}</code> as the
          message (for example <code>42:7</code> for the 7th roll of game 42).
        </li>
        <li>
          Read the 32 bytes of the result from the first. Take the first byte that is below 252; the die is that byte modulo 6,
          plus 1. (Bytes 252 to 255 are skipped so that every face is equally likely: 252 is 42 × 6.)
        </li>
        <li>
          If all 32 bytes are 252 or more (almost never), repeat with the message <code>{'{game_id}:{k}:1'}</code>, then{' '}
          <code>{'{game_id}:{k}:2'}</code>, and so on.
        </li>
        <li>
          When the game finishes, the seed is revealed (a reset reveals the previous round's seed in the game log). Check that
          its SHA-256 is the commitment you noted: then the server could not have changed the seed, and every die follows
          from it. This page does all of this in your browser.
        </li>
      </ol>
    </section>
  );
}
