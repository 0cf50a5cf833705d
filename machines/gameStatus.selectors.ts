import type { SnapshotFrom } from 'xstate';
import type { GameChartState } from '../contract/game/status';
import type { gameStatusMachine } from './gameStatus.machine';

type S = SnapshotFrom<typeof gameStatusMachine>;

/** The status control each chart state shows (docs/game-rules.md §6). */
export type StatusControl = 'start' | 'pause' | 'resume' | 'finished';

/** Label and the action the control sends: Start Game sends resume; Game Finished sends nothing. */
export const STATUS_CONTROLS: Readonly<Record<StatusControl, { label: string; action: string | null }>> = {
  start: { label: 'Start Game', action: 'resume' },
  pause: { label: 'Pause Game', action: 'pause' },
  resume: { label: 'Resume Game', action: 'resume' },
  finished: { label: 'Game Finished', action: null },
};

/** The server spelling of each chart state, for display ('in-progress' ...). */
export const STATUS_LABELS: Readonly<Record<GameChartState, string>> = {
  pending: 'PENDING',
  ready: 'READY',
  inProgress: 'in-progress',
  paused: 'paused',
  finished: 'finished',
};

const STATES: readonly GameChartState[] = ['pending', 'ready', 'inProgress', 'paused', 'finished'];

/** The chart state ('pending' ... 'finished'); 'pending' only while resolving, which never rests. */
const selectChartState = (s: S): GameChartState => STATES.find((state) => s.matches(state)) ?? 'pending';

/** The server status string of the current state ('PENDING', 'in-progress' ...). */
export const selectStatusLabel = (s: S): string => STATUS_LABELS[selectChartState(s)];

/** Which status control is shown. */
export const selectStatusControl = (s: S): StatusControl => {
  if (s.matches('inProgress')) return 'pause';
  if (s.matches('paused')) return 'resume';
  if (s.matches('finished')) return 'finished';
  return 'start';
};

/** Whether the shown status control may be pressed now (derived with `can`). */
export const canUseStatusControl = (s: S): boolean => {
  const action = STATUS_CONTROLS[selectStatusControl(s)].action;
  return action !== null && s.can({ type: 'status.request', action });
};

/** Whether Reset Game may be pressed: every status except finished, not while a change runs. */
export const canReset = (s: S): boolean => s.can({ type: 'reset.request' });

/** A status change is under way. */
export const isChangingStatus = (s: S): boolean => s.hasTag('busy');

/** In progress or paused: a board settings update asks for confirmation first (docs/client.md §1). */
const isRunning = (s: S): boolean => s.hasTag('running');
