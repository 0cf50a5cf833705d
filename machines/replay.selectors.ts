import type { SnapshotFrom } from 'xstate';
import type { replayMachine } from './replay.machine';

type S = SnapshotFrom<typeof replayMachine>;

/** Named selectors of the replay chart. */
export const selectFrame = (s: S) => s.context.frame;
export const selectLastFrame = (s: S) => s.context.last;
export const selectSpeed = (s: S) => s.context.speed;
export const selectIsPlaying = (s: S) => s.matches('playing');
export const selectIsEnded = (s: S) => s.matches('ended');
/** The one play/pause button: which intent it sends. */
export const selectPlayIntent = (s: S): 'play' | 'pause' | 'replay' => (s.matches('playing') ? 'pause' : s.matches('ended') ? 'replay' : 'play');
export const selectCanPlay = (s: S) => s.can({ type: 'replay.play' }) || s.can({ type: 'replay.pause' });
export const selectCanStep = (s: S) => s.can({ type: 'replay.step' });
export const selectCanStepBack = (s: S) => s.can({ type: 'replay.back' });
