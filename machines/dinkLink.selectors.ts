import type { SnapshotFrom } from 'xstate';
import type { dinkLinkMachine } from './dinkLink.machine';

type S = SnapshotFrom<typeof dinkLinkMachine>;

/** Which phase the Dink panel's link part shows: the chart's state names. */
export type DinkLinkPhase = S['value'];

/** Named selectors of the dinkLink chart. */
export const selectDinkPhase = (s: S) => s.value;
export const isDinkBusy = (s: S) => s.hasTag('busy');
export const selectDinkLink = (s: S) => s.context.link;
export const selectDinkMessage = (s: S) => s.context.message;
/** The failure text of the last load (shown with Retry in `failed`). */
export const selectDinkLoadError = (s: S) => s.context.error;
/** Make Link, the switch, Copy, Rotate and Revoke are offered where the chart takes them (derived with `can`). */
export const canCreateDink = (s: S) => s.can({ type: 'dink.create' });
export const canToggleAutoApprove = (s: S) => s.can({ type: 'autoApprove.toggle' });
export const canCopyDink = (s: S) => s.can({ type: 'link.copy', what: 'config' });
/** Rotate and Revoke open their dialogs only with a link and nothing running. */
export const canChangeDink = (s: S) => s.matches('loaded') && s.context.link !== null;
