import type { SnapshotFrom } from 'xstate';
import type { draftRoomMachine } from './draftRoom.machine';

type S = SnapshotFrom<typeof draftRoomMachine>;

/** Which phase the draft room shows. */
export type DraftRoomPhase = 'loading' | 'failed' | 'idle' | 'starting' | 'pausing' | 'resuming' | 'undoing' | 'ending' | 'picking';

/** Named selectors of the draftRoom chart. */
export const selectDraftPhase = (s: S): DraftRoomPhase => (s.matches('loaded') ? ((s.value as { loaded: DraftRoomPhase }).loaded) : (s.value as DraftRoomPhase));
export const isDraftBusy = (s: S) => s.hasTag('busy');
export const selectDraft = (s: S) => s.context.draft;
export const selectSignups = (s: S) => s.context.signups;
/** Why the room could not be read (`failed`), or null. */
export const selectDraftError = (s: S) => s.context.error;
/** The fading banner of the actions' outcomes (banner.machine.ts). */
export const selectDraftBanner = (s: S) => s.children.banner;
export const selectEventName = (s: S) => s.context.eventName;
type BannerSnapshot = SnapshotFrom<NonNullable<ReturnType<typeof selectDraftBanner>>>;
/** The banner's message and whether it fades (read here so the draft page needs nothing of the game screen's chunk). */
export const selectBannerText = (s: BannerSnapshot) => s.context.message;
export const isBannerTextFading = (s: BannerSnapshot) => s.matches('fading');
/** Start is offered with no draft or a finished one, and nothing running. */
export const canStartDraft = (s: S) => s.matches({ loaded: 'idle' }) && (s.context.draft === null || s.context.draft.status === 'done');
/** The controls are enabled where the chart takes them (derived with `can`). */
export const canPause = (s: S) => s.can({ type: 'draft.control', action: 'pause' });
export const canResume = (s: S) => s.can({ type: 'draft.control', action: 'resume' });
export const canUndo = (s: S) => s.can({ type: 'draft.control', action: 'undo' });
export const canEnd = (s: S) => s.can({ type: 'draft.control', action: 'end' });
/** Picks are taken only in loaded.idle while the draft runs. */
export const canPickNow = (s: S) => s.matches({ loaded: 'idle' }) && s.context.draft?.status === 'running';
