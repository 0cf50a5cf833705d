import * as Dialog from '@radix-ui/react-dialog';
import { useActorRef, useSelector } from '@xstate/react';
import { useId, useMemo, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ActorRefFrom } from 'xstate';
import { previewConnections } from '../../../contract/game/boardEditor';
import { eventGameMachine } from '../../../machines/eventGame.machine';
import * as sel from '../../../machines/eventGame.selectors';
import { gameStatusMachine, type ChangeStatusInput } from '../../../machines/gameStatus.machine';
import * as statusSel from '../../../machines/gameStatus.selectors';
import { bannerMachine } from '../../../machines/banner.machine';
import { liveGameMachine } from '../../../machines/liveGame.machine';
import { gameSocketActor } from '../../realtime/gameSocket';
import { revertAllowance } from '../../../contract/game/moves';
import { boardTaskCounts, countTeamStates, rollsText, TURNS_EXPLAINED } from '../../../contract/game/counts';
import { boardSizeLabel } from '../../../contract/game/board';
import { statusClass, statusLabel as visibleStatus } from '../../../contract/game/status';
import type { BoardBody, Game } from '../../../contract/gameApi';
import type { GameSettings, GameSettingsBody } from '../../../contract/game/settings';
import { parseSettingsDraft, type ReliefSettings } from '../../../contract/game/settingsDraft';
import { eventHours, sampleBoardOfSettings, simulatorBoardOfGame } from '../../../contract/game/simulatorView';
import { BoardSimulator } from '../forecast/BoardSimulator';
import { ConfirmDialog, useConfirmAction, type ConfirmActionRef, type Nothing } from '../../ui/ConfirmDialog';
import { TableHead } from '../../ui/TableHead';
import { LoadFailed } from '../../ui/LoadFailed';
import { Spinner } from '../../ui/Spinner';
import { BoardView } from '../board/BoardView';
import { CLAN_MANAGEMENT_ORIGIN, gamePlayPath } from '../../base/paths';
import { useSelectors } from '../../base/useSelectors';
import { ManageFrame } from './ManageFrame';
import { SettingsForm, type EventGameRef } from './SettingsForm';
import { BoardFileField, boardFileLogic, type BoardFileRef } from './BoardFileField';
import { selectChosenBoard } from '../../../machines/boardFile.selectors';
import { boardFileUrl } from '../../api/games';
import { liveGameEffects, type GameEffects } from './effects';
import { latestCall, useLatest } from './latest';
import { ChartDialogContent } from '../../ui/Modal';
import { DiscordPanel, type DiscordEffects } from '../discord/DiscordPanel';
import { DinkPanel, type DinkEffects } from '../dink/DinkPanel';

type StatusRef = ActorRefFrom<typeof gameStatusMachine>;

/** Texts of the three confirmation dialogs (docs/client.md §7). */
export const GAME_DIALOG_TEXTS = {
  deleteTitle: 'Confirm Game Deletion',
  deleteBody: 'Are you sure you want to delete this game? The board, its squares, team positions and the game log are deleted permanently. This action cannot be undone.',
  resetTitle: 'Confirm Game Reset',
  resetBody:
    'Resetting clears all team positions, move history and revert counts. The board configuration (snakes, ladders and tasks) is kept, and the game status is set back to READY.',
  randomizeTitle: 'Confirm Board Randomization',
  randomizeBody: (status: string) =>
    `The game is currently ${status.toUpperCase()}. Randomizing the board permanently changes the snakes and ladders (and the tasks on the squares). Team positions stay where they are. This is not a reset.`,
} as const;

/** What the Board Settings area says for each BoardLock (eventGame.selectors): what it offers and why. */
const BOARD_LOCK_TEXTS: Record<sel.BoardLock, string> = {
  open: 'Randomize Board places new snakes, ladders and tasks using these settings. Team positions are kept; it does not reset the game.',
  paused:
    'The game is paused. Randomize Board places new snakes, ladders and tasks using these settings after a confirmation; team positions are kept. To delete the game, reset it first.',
  inProgress: 'The game is in progress, so its board stays as it is while teams play on it. Pause the game to randomize the board; reset the game to delete it.',
  finished: 'The game is finished: its board is a record of the game and can no longer be randomized. Delete Game removes the game and its results.',
};

/**
 * The Event Game view of one event (docs/client.md §7, §11, §12; docs/game-rules.md §4, §6; docs/server.md
 * §3): 'Back to Events' and 'Managing: Game Board'; without a game
 * the setup mode ('Setup New Game', the settings form, 'Create & Deploy Game'); with one, the
 * results/status area (live tracker with turns processed and the rolls behind them, as
 * contract/game/counts defines them; Start/Pause/Resume/Game Finished, Reset, Refresh), the manual
 * board editor with a live preview of the edited board, and Board Settings (Randomize Board and
 * Delete Game (Wipe Board) where the game's status allows them: see BOARD_LOCK_TEXTS); the Confirm Game Deletion, Confirm Game Reset and Confirm Board
 * Randomization dialogs; messages in the fading global banner. The flow is the eventGame chart
 * with its gameStatus child; the live socket keeps the tracker and status current. `effects`
 * replaces the calls and the socket in tests. `onGameChanged` tells the event list a game was
 * created or deleted here (so 'Manage Game Tasks' appears or goes at once). With `discord`, the
 * event's Discord panel (docs/server.md §10) follows the game view; with `dink`, the event's Dink
 * panel (docs/client.md §7, docs/server.md §13) follows it.
 */
export function EventGameView({
  clanId,
  eventId,
  effects = liveGameEffects,
  discord,
  dink,
  eventTimes,
  ...flow
}: {
  clanId: number;
  eventId: number;
  gameId: number | null;
  onBack: () => void;
  effects?: GameEffects;
  /** The event's start and end (ISO), for the simulator's chance to finish in time (docs/game-rules.md §14). */
  eventTimes?: { start_datetime: string; end_datetime: string | null };
  /** The Discord panel's calls (docs/server.md §10); without them the panel is not shown. */
  discord?: DiscordEffects;
  /** The Dink panel's calls (docs/server.md §13); without them the panel is not shown. */
  dink?: DinkEffects;
  /** Called after this view created or deleted the game, so the event list can refresh. */
  onGameChanged?: () => void;
}) {
  // Keyed by event: the list catching up with a game this view created must not restart it. The
  // flow's own props (gameId, onBack, onGameChanged) pass through as given.
  return (
    <>
      <EventGameFlow key={eventId} clanId={clanId} eventId={eventId} {...flow} effects={effects} availableHours={eventHours(eventTimes?.start_datetime, eventTimes?.end_datetime)} />
      {discord && <DiscordPanel key={`discord-${eventId}`} clanId={clanId} eventId={eventId} effects={discord} />}
      {dink && <DinkPanel key={`dink-${eventId}`} clanId={clanId} eventId={eventId} effects={dink} />}
    </>
  );
}

/** The game a Delete or Reset acts on. */
interface GameSubject {
  gameId: number;
}

const NO_GAME: GameSubject = { gameId: 0 };

function EventGameFlow({
  clanId,
  eventId,
  gameId,
  onBack,
  effects,
  onGameChanged,
  availableHours,
}: {
  clanId: number;
  eventId: number;
  gameId: number | null;
  onBack: () => void;
  effects: GameEffects;
  onGameChanged?: () => void;
  availableHours: number | null;
}) {
  const banner = useActorRef(bannerMachine);
  const deleteDialog = useConfirmAction<Nothing, GameSubject>({
    closed: { draft: {}, subject: NO_GAME },
    perform: async ({ subject }) => ({ message: (await effects.deleteGame(clanId, eventId, subject.gameId)).message }),
    onSucceeded: () => {
      flow.send({ type: 'game.deleted' });
      onGameChanged?.();
    },
  });
  const resetDialog = useConfirmAction<Nothing, GameSubject>({
    closed: { draft: {}, subject: NO_GAME },
    perform: async ({ subject }) => ({ message: (await effects.resetGame(clanId, eventId, subject.gameId)).message }),
    onSucceeded: () => flow.send({ type: 'game.reload' }),
  });
  // The actor lives as long as the view; its implementations read the current props through this ref.
  const latest = useLatest({ clanId, eventId, effects, onGameChanged });
  const notify = (notice: { tone: 'success' | 'error'; text: string }) => banner.send({ type: 'message.show', ...notice });
  // 'Start from a board file' (docs/client.md §7): its chosen board goes with Create & Deploy Game.
  const boardFile = useActorRef(boardFileLogic(() => flow));
  const flow = useActorRef(
    eventGameMachine.provide({
      actors: {
        loadGame: latestCall(latest, (fx, clan, event, input: { gameId: number }) => fx.fetchGame(clan, event, input.gameId)),
        saveRules: latestCall(latest, (fx, clan, event, input: { gameId: number; proofRequired: boolean }) => fx.saveGameRules(clan, event, input.gameId, input.proofRequired)),
        saveRelief: latestCall(latest, (fx, clan, event, input: { gameId: number; relief: ReliefSettings }) => fx.saveGameRelief(clan, event, input.gameId, input.relief)),
        createGame: latestCall(latest, async (fx, clan, event, input: { settings: GameSettingsBody }) => {
          const board = selectChosenBoard(boardFile.getSnapshot());
          const answer = await fx.createGame(clan, event, board ? { ...input.settings, board } : input.settings);
          latest.current.onGameChanged?.();
          return { gameId: answer.game.id, message: answer.message };
        }),
        randomizeGame: latestCall(latest, (fx, clan, event, input: { gameId: number; settings: GameSettings }) =>
          fx.randomizeGame(clan, event, input.gameId, input.settings),
        ),
        saveBoard: latestCall(latest, (fx, clan, event, input: { gameId: number; body: BoardBody }): Promise<{ message: string }> =>
          fx.saveBoard(clan, event, input.gameId, input.body),
        ),
        liveGame: liveGameMachine.provide({ actors: { socket: gameSocketActor(() => latest.current.effects.openSocket()) } }),
        gameStatus: gameStatusMachine.provide({
          actors: {
            changeStatus: latestCall(latest, async (fx, clan, event, input: ChangeStatusInput) => ({
              status: (await fx.changeGameStatus(clan, event, input.gameId, input.status, input.action)).status,
            })),
          },
          actions: {
            notify: (_, notice) => notify(notice),
            confirmReset: ({ context }) => resetDialog.send({ type: 'confirm.open', subject: { gameId: context.gameId } }),
          },
        }),
      },
      actions: { notify: (_, notice) => notify(notice) },
    }),
    { input: { gameId } },
  );
  const mode = useSelector(flow, sel.selectMode);
  const loadError = useSelector(flow, sel.selectLoadError);

  return (
    <ManageFrame name="game-admin" backLabel="Back to Events" onBack={onBack} title="Managing: Game Board" banner={banner}>
      {mode === 'loading' && <Spinner text="Loading game details..." />}
      {mode === 'loadFailed' && <LoadFailed error={loadError} onRetry={() => flow.send({ type: 'game.reload' })} />}
      {mode === 'setup' && <SetupMode flow={flow} boardFile={boardFile} availableHours={availableHours} />}
      {mode === 'manage' && <ManageMode flow={flow} clanId={clanId} eventId={eventId} deleteDialog={deleteDialog} availableHours={availableHours} />}
      <ConfirmDialog actor={deleteDialog} title={GAME_DIALOG_TEXTS.deleteTitle} confirmLabel="Delete Game" processingText="Deleting game..." danger>
        <p>{GAME_DIALOG_TEXTS.deleteBody}</p>
      </ConfirmDialog>
      <ConfirmDialog actor={resetDialog} title={GAME_DIALOG_TEXTS.resetTitle} confirmLabel="Reset Game" processingText="Resetting game..." danger>
        <p>{GAME_DIALOG_TEXTS.resetBody}</p>
      </ConfirmDialog>
      <RandomizeDialog flow={flow} />
    </ManageFrame>
  );
}

/** Setup mode (docs/client.md §1, §7): no board yet, 'Start from a board file', the settings form and 'Create & Deploy Game'. */
function SetupMode({ flow, boardFile, availableHours }: { flow: EventGameRef; boardFile: BoardFileRef; availableHours: number | null }) {
  const creating = useSelector(flow, sel.isCreating);
  const draft = useSelector(flow, sel.selectDraft);
  // The simulator runs on a sample board of the settings as typed (the real one is drawn at deploy).
  const sample = useMemo(() => {
    const settings = parseSettingsDraft(draft);
    return settings ? sampleBoardOfSettings(settings, availableHours) : null;
  }, [draft, availableHours]);
  return (
    <div className="game-area">
      <h3>Setup New Game</h3>
      <p>
        The game board for this event has not been created yet. Choose the board size, the number of snakes and ladders, the reverts each team may use
        and how many tasks of each difficulty to place, then deploy the board. Snakes, ladders and tasks from the clan task pool are placed at random.
      </p>
      {creating && <Spinner text="Deploying game, please wait..." />}
      <BoardFileField boardFile={boardFile} disabled={creating} />
      <SettingsForm flow={flow} submitLabel="Create & Deploy Game" />
      <BoardSimulator board={sample} />
    </div>
  );
}

/** Existing-game mode: results/status area, board configuration area and Board Settings area. */
function ManageMode({
  flow,
  clanId,
  eventId,
  deleteDialog,
  availableHours,
}: {
  flow: EventGameRef;
  clanId: number;
  eventId: number;
  deleteDialog: ConfirmActionRef<Nothing, GameSubject>;
  availableHours: number | null;
}) {
  const game = useSelector(flow, sel.selectGame);
  const statusRef = useSelector(flow, sel.selectStatusRef);
  const board = useMemo(() => (game ? simulatorBoardOfGame(game, availableHours) : null), [game?.board_size, game?.board_connections, game?.board_squares, availableHours]);
  if (!game || !statusRef) return null;
  return (
    <div className="game-admin__areas">
      <ResultsArea flow={flow} game={game} statusRef={statusRef} clanId={clanId} eventId={eventId} />
      <BoardEditor flow={flow} game={game} />
      <BoardSettings flow={flow} game={game} statusRef={statusRef} deleteDialog={deleteDialog} />
      <BeforeStart statusRef={statusRef}>
        <BoardSimulator board={board} />
      </BeforeStart>
    </div>
  );
}

/** Its children only before the game starts (PENDING or READY: the board may still change). */
function BeforeStart({ statusRef, children }: { statusRef: StatusRef; children: ReactNode }) {
  const lock = useSelector(statusRef, sel.selectBoardLock);
  return lock === 'open' ? <>{children}</> : null;
}

/**
 * The Board Settings area: the settings form, what the board holds, and Randomize Board and Delete
 * Game only where the game's status allows them (sel.selectBoardLock, BOARD_LOCK_TEXTS).
 */
function BoardSettings({ flow, game, statusRef, deleteDialog }: { flow: EventGameRef; game: Game; statusRef: StatusRef; deleteDialog: ConfirmActionRef<Nothing, GameSubject> }) {
  const randomizing = useSelector(flow, sel.isRandomizing);
  const lock = useSelector(statusRef, sel.selectBoardLock);
  const tasks = boardTaskCounts(game.board_squares);
  const unassigned = tasks.taskSquares - tasks.withTask;
  const starts = game.board_connections.length;
  const openDelete = () => deleteDialog.send({ type: 'confirm.open', subject: { gameId: game.id } });
  const canDelete = lock === 'open' || lock === 'finished';
  return (
    <section className="game-area" aria-labelledby="board-settings-title">
      <h3 id="board-settings-title">Board Settings</h3>
      <p className={lock === 'open' ? 'muted' : 'board-lock'} data-testid="board-lock" data-lock={lock}>
        {BOARD_LOCK_TEXTS[lock]}
      </p>
      <p className="muted" data-testid="board-tasks">
        This board: {tasks.withTask} of {tasks.taskSquares} task squares hold a task{unassigned > 0 ? ` (${unassigned} Unassigned)` : ''}
        {starts > 0 ? `; the ${starts} squares where a snake or ladder starts hold none.` : '.'}
      </p>
      {randomizing && <Spinner text="Randomizing board..." />}
      <SettingsForm
        flow={flow}
        submitLabel="Randomize Board"
        locked={lock === 'inProgress' || lock === 'finished'}
        extra={
          canDelete ? (
            <button type="button" className="btn btn--danger game-settings__delete" onClick={openDelete}>
              Delete Game (Wipe Board)
            </button>
          ) : null
        }
      />
    </section>
  );
}

/** The results/status area: status, live tracker, team positions, status controls and Reset. */
function ResultsArea({ flow, game, statusRef, clanId, eventId }: { flow: EventGameRef; game: Game; statusRef: StatusRef; clanId: number; eventId: number }) {
  const { statusLabel, control, controlEnabled, resetEnabled, changing } = useSelectors(statusRef, {
    statusLabel: statusSel.selectStatusLabel,
    control: statusSel.selectStatusControl,
    controlEnabled: statusSel.canUseStatusControl,
    resetEnabled: statusSel.canReset,
    changing: statusSel.isChangingStatus,
  });
  const reloading = useSelector(flow, sel.isReloading);
  const canReload = useSelector(flow, sel.canReload);
  const teams = game.team_states;
  const counts = countTeamStates(teams);
  const allowance = revertAllowance(game.max_reverts_allowed, teams.length);
  const { label, action } = statusSel.STATUS_CONTROLS[control];
  // One handler for every status control: the chart decides what an action means.
  const request = (e: MouseEvent<HTMLButtonElement>) => statusRef.send({ type: 'status.request', action: e.currentTarget.value });
  return (
    <section className="game-area" aria-labelledby="game-results-title">
      <div className="game-results__head">
        <h3 id="game-results-title">Game Status &amp; Results</h3>
        <span className={`game-status game-status--${statusClass(statusLabel)}`} data-testid="game-status" data-status={statusLabel}>
          {visibleStatus(statusLabel)}
        </span>
      </div>
      <p className="muted game-results__facts">
        {game.event_name} · Board {boardSizeLabel(game.board_size)} · {game.num_snakes} snakes · {game.num_ladders} ladders · {teams.length}{' '}
        {teams.length === 1 ? 'team' : 'teams'}
      </p>
      <dl className="tracker" aria-label="Live tracker">
        <div className="tracker__item">
          <dt>Turns processed</dt>
          <dd data-testid="turns-processed">{counts.turns}</dd>
          <dd className="tracker__detail" data-testid="rolls-count">
            {rollsText(counts)}
          </dd>
        </div>
        <div className="tracker__item">
          <dt>Reverts used</dt>
          <dd data-testid="reverts-used">
            {counts.reverts} / {allowance}
          </dd>
        </div>
      </dl>
      <p className="muted tracker__note">{TURNS_EXPLAINED}</p>
      {game.winners && game.winners.length > 0 && (
        <p className="game-results__winner">
          Winner: {game.winners.map((w) => w.name).join(', ')}
        </p>
      )}
      {teams.length === 0 ? (
        <p className="muted">No teams in this event yet. Teams created in Manage Teams get a place on the board at once.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table team-positions">
            <caption className="sr-only">Team positions</caption>
            <TableHead columns={['Team', 'Square', 'Rolls', 'Turns', 'Reverts']} />
            <tbody>
              {teams.map((t) => (
                <tr key={t.team_id} data-team={t.team_name}>
                  <th scope="row">
                    <span className="team-name">
                      <span className="team-name__bar" style={{ background: /^#[0-9a-f]{6}$/i.test(t.team_color) ? t.team_color : '#cccccc' }} aria-hidden="true" />
                      {t.team_name}
                    </span>
                  </th>
                  <td data-testid="team-position">{t.current_position}</td>
                  <TeamCounts team={t} />
                  <td>
                    {t.revert_count} / {game.max_reverts_allowed}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="row game-results__controls">
        <button type="button" className="btn btn--primary" value={action ?? ''} disabled={!controlEnabled} onClick={request} data-testid="status-control">
          {label}
        </button>
        <button type="button" className="btn btn--danger" disabled={!resetEnabled} onClick={() => statusRef.send({ type: 'reset.request' })}>
          Reset Game
        </button>
        <button type="button" className="btn" disabled={!canReload} onClick={() => flow.send({ type: 'game.reload' })}>
          Refresh
        </button>
        <Link className="btn btn--ghost game-results__play" to={gamePlayPath(clanId, eventId, game.id)} state={CLAN_MANAGEMENT_ORIGIN}>
          Open Game Screen
        </Link>
        <a className="btn btn--ghost" href={boardFileUrl(clanId, eventId, game.id)} download>
          Download board.json
        </a>
      </div>
      {(changing || reloading) && <p className="muted" role="status">{changing ? 'Updating game status...' : 'Refreshing game data...'}</p>}
    </section>
  );
}

/** A team's Rolls and Turns cells (contract/game/counts). */
function TeamCounts({ team }: { team: Game['team_states'][number] }) {
  const counts = countTeamStates([team]);
  return (
    <>
      <td data-testid="team-rolls">{counts.rolls}</td>
      <td data-testid="team-turns">{counts.turns}</td>
    </>
  );
}

/** The manual board editor: snakes and ladders as JSON, saved after the board rules pass, with a live preview. */
function BoardEditor({ flow, game }: { flow: EventGameRef; game: Game }) {
  const id = useId();
  const { snakesText, laddersText, boardError, canSave, saving } = useSelectors(flow, {
    snakesText: sel.selectSnakesText,
    laddersText: sel.selectLaddersText,
    boardError: sel.selectBoardError,
    canSave: sel.canSaveBoard,
    saving: sel.isSavingBoard,
  });
  const preview = useMemo(() => previewConnections(game.board_size, snakesText, laddersText), [game.board_size, snakesText, laddersText]);
  return (
    <section className="game-area" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Board Configuration</h3>
      <p className="muted">
        Edit the snakes and ladders by hand: each is a [start, end] pair of squares. Snakes go down (start greater than end), ladders go up; none may use
        square 1 or {game.board_size}, share a square with another, or start and end on the same row.
      </p>
      <form
        className="board-editor"
        onSubmit={(e) => {
          e.preventDefault();
          flow.send({ type: 'board.save' });
        }}
      >
        <div className="board-editor__boxes">
          <div className="field">
            <label className="field__label" htmlFor={`${id}-snakes`}>Snakes config (JSON)</label>
            <textarea
              id={`${id}-snakes`}
              className="input board-editor__text"
              rows={8}
              spellCheck={false}
              value={snakesText}
              aria-describedby={boardError ? `${id}-error` : undefined}
              onChange={(e) => flow.send({ type: 'board.change', box: 'snakes', value: e.target.value })}
            />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-ladders`}>Ladders config (JSON)</label>
            <textarea
              id={`${id}-ladders`}
              className="input board-editor__text"
              rows={8}
              spellCheck={false}
              value={laddersText}
              aria-describedby={boardError ? `${id}-error` : undefined}
              onChange={(e) => flow.send({ type: 'board.change', box: 'ladders', value: e.target.value })}
            />
          </div>
        </div>
        {boardError && (
          <p id={`${id}-error`} className="notice notice--error" role="alert">
            {boardError}
          </p>
        )}
        <div className="row">
          <button type="submit" className="btn btn--primary" disabled={!canSave}>
            Save Board Configuration
          </button>
          {saving && <span className="muted" role="status">Saving board configuration...</span>}
        </div>
      </form>
      <div className="board-editor__preview">
        <h4>Preview</h4>
        <p className="muted board-editor__preview-note">
          {preview === null
            ? 'The preview shows the saved board until both boxes hold valid JSON.'
            : 'This is the board as it will be saved. Click a square for its task.'}
        </p>
        <BoardView
          boardSize={game.board_size}
          squares={game.board_squares}
          connections={preview ?? game.board_connections}
          teams={game.team_states}
          label="Board preview"
        />
      </div>
    </section>
  );
}

/** Confirm Board Randomization: opened by the chart when settings are saved while in-progress or paused. */
function RandomizeDialog({ flow }: { flow: EventGameRef }) {
  const open = useSelector(flow, sel.isRandomizeConfirmOpen);
  const statusRef = useSelector(flow, sel.selectStatusRef);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && flow.send({ type: 'randomize.cancel' })}>
      <ChartDialogContent open={open} className="dialog panel" aria-describedby={undefined}>
        <Dialog.Title className="dialog__title">{GAME_DIALOG_TEXTS.randomizeTitle}</Dialog.Title>
        {statusRef && <RandomizeText statusRef={statusRef} />}
        <div className="row dialog__actions">
          <button type="button" className="btn" onClick={() => flow.send({ type: 'randomize.cancel' })}>
            No, Keep Current Board
          </button>
          <button type="button" className="btn btn--danger" onClick={() => flow.send({ type: 'randomize.confirm' })}>
            Yes, Randomize Board
          </button>
        </div>
      </ChartDialogContent>
    </Dialog.Root>
  );
}

function RandomizeText({ statusRef }: { statusRef: StatusRef }) {
  const status = useSelector(statusRef, statusSel.selectStatusLabel);
  return <p>{GAME_DIALOG_TEXTS.randomizeBody(status)}</p>;
}
