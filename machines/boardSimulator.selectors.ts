import type { SnapshotFrom } from 'xstate';
import { checkHoursDraft } from '../contract/game/simulatorView';
import type { boardSimulatorMachine } from './boardSimulator.machine';

type S = SnapshotFrom<typeof boardSimulatorMachine>;

/** Named selectors of the boardSimulator chart. */
export const selectSimulation = (s: S) => s.context.result;
export const selectHoursDraft = (s: S) => s.context.hours;
export const selectIsSimulating = (s: S) => s.hasTag('busy');
export const selectHasFailed = (s: S) => s.matches('failed');
/** The hours' message while they are refused, else null. */
export const selectHoursError = (s: S) => {
  if (!s.matches('invalid')) return null;
  const check = checkHoursDraft(s.context.hours);
  return check.ok ? null : check.error;
};
