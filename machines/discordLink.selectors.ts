import type { SnapshotFrom } from 'xstate';
import type { discordLinkMachine } from './discordLink.machine';

type S = SnapshotFrom<typeof discordLinkMachine>;

/** Named selectors of the discordLink chart; first, which part of the /discord/link/{code} page shows: the chart's state (typed as its state names). */
export const selectLinkPhase = (s: S) => s.value;
export const selectLinkClans = (s: S) => s.context.clans;
export const selectPickedClan = (s: S) => s.context.clanId;
export const selectMadeLink = (s: S) => s.context.link;
export const selectLinkError = (s: S) => s.context.error;
/** The confirm dialog is open while confirming or linking. */
export const isLinkDialogOpen = (s: S) => s.hasTag('modalOpen');
export const isLinkBusy = (s: S) => s.hasTag('busy');
/** 'Link to Discord' is pressable where the chart takes it (a clan picked). */
export const canRequestLink = (s: S) => s.can({ type: 'link.request' });
