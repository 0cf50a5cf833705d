import type { SnapshotFrom } from 'xstate';
import type { discordSettingsMachine } from './discordSettings.machine';

type S = SnapshotFrom<typeof discordSettingsMachine>;

/** Which phase the Discord panel shows: the chart's state names. */
export type DiscordPhase = S['value'];

/** Named selectors of the discordSettings chart. */
export const selectDiscordPhase = (s: S) => s.value;
export const isDiscordBusy = (s: S) => s.hasTag('busy');
export const selectSavedDiscord = (s: S) => s.context.saved;
export const selectDraftUrl = (s: S) => s.context.draftUrl;
export const selectAnnounce = (s: S) => s.context.announce;
/** The 'Ping teams' switch (docs/server.md §19). */
export const selectPingTeams = (s: S) => s.context.pingTeams;
export const selectUrlProblem = (s: S) => s.context.urlProblem;
export const selectDiscordMessage = (s: S) => s.context.message;
/** The failure text of the last load (shown with Retry in `failed`). */
export const selectDiscordLoadError = (s: S) => s.context.error;
/** Test and Remove need a saved webhook and nothing running (derived with `can`). */
export const canTestDiscord = (s: S) => s.can({ type: 'discord.test' });
export const canDeleteDiscord = (s: S) => s.can({ type: 'discord.delete' });
/** Save is offered where the chart takes it (`loaded`, and `rechecking` in the background). */
export const canSaveDiscord = (s: S) => s.can({ type: 'discord.save' });
