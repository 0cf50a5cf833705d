import { assign, setup } from 'xstate';
import { DISCORD_PANEL_TEXTS, webhookDraftProblem, type Announce, type AnnounceKind, type DiscordSettings } from '../contract/discord';
import { missingPromise } from './shared';
import { errorText } from '../contract/errorText';
import { loadStep } from './listLoader';

/** What the save actor sends: the new URL (null keeps the saved one), the flags and ping_teams. */
export interface SaveDiscordInput {
  webhookUrl: string | null;
  announce: Announce;
  pingTeams: boolean;
}

export interface DiscordSettingsContext {
  /** The settings as the server last answered them (URL masked), or null when none is set. */
  saved: DiscordSettings | null;
  /** The URL being typed (never the saved one: the server only sends it masked). */
  draftUrl: string;
  announce: Announce;
  /** The 'Ping teams' switch (docs/server.md §19 "Team pings"). */
  pingTeams: boolean;
  /** The panel's own refusal of the draft (WEBHOOK_URL_MESSAGE), shown under the field. */
  urlProblem: string | null;
  /** The last action's outcome: a success text or the server's error. */
  message: { tone: 'success' | 'error'; text: string } | null;
  /** The failure text of the last load, or null. */
  error: string | null;
}

export type DiscordSettingsEvent =
  | { type: 'url.change'; url: string }
  | { type: 'announce.toggle'; kind: AnnounceKind }
  | { type: 'pingTeams.toggle' }
  | { type: 'discord.save' }
  | { type: 'discord.test' }
  | { type: 'discord.delete' }
  | { type: 'discord.reload' };

/**
 * How long the panel waits in `loaded`, a webhook being saved, before it reads the settings again
 * (ms): the delivery worker marks a webhook failing or disabled in the background.
 */
export const DISCORD_RECHECK_MS = 30_000;

const ALL_ON: Announce = { status: true, rolls: true, reviews: true, results: true };

/** The list-loader load step over the event's settings: the form starts from what is saved. */
const settingsLoad = loadStep<DiscordSettings | null, DiscordSettingsContext, 'loadSettings'>({
  id: 'discordSettings',
  actor: 'loadSettings',
  fallback: DISCORD_PANEL_TEXTS.actionFailed,
  onLoaded: (_, saved) => savedForm(saved),
});

/** The context with `saved` as the server answered it, the form reset to it. */
function savedForm(saved: DiscordSettings | null): Partial<DiscordSettingsContext> {
  return { saved, announce: saved?.announce ?? ALL_ON, pingTeams: saved?.ping_teams ?? false, draftUrl: '', urlProblem: null };
}

/** The chart's types, actors (effects provided by the panel), delays, guards and actions. */
const discordSettingsSetup = setup({
  types: {
    context: {} as DiscordSettingsContext,
    events: {} as DiscordSettingsEvent,
  },
  actors: {
    ...settingsLoad.actors,
    saveSettings: missingPromise<DiscordSettings, SaveDiscordInput>('discordSettings', 'saveSettings'),
    testWebhook: missingPromise<void>('discordSettings', 'testWebhook'),
    deleteSettings: missingPromise<void>('discordSettings', 'deleteSettings'),
  },
  delays: {
    settingsRecheck: DISCORD_RECHECK_MS,
  },
  guards: {
    isDraftSendable: ({ context }) => webhookDraftProblem(context.draftUrl, context.saved !== null) === null,
    hasSaved: ({ context }) => context.saved !== null,
  },
  actions: {
    assignLoaded: assign(({ context }, saved: DiscordSettings | null) => settingsLoad.loaded(context, saved)),
    assignError: assign((_, error: unknown) => settingsLoad.failed(error)),
    assignSaved: assign((_, saved: DiscordSettings | null) => savedForm(saved)),
    assignSavedState: assign((_, saved: DiscordSettings | null) => ({ saved })),
    assignUrl: assign((_, url: string) => ({ draftUrl: url, urlProblem: null })),
    togglePingTeams: assign(({ context }) => ({ pingTeams: !context.pingTeams })),
    toggleAnnounce: assign(({ context }, kind: AnnounceKind) => ({ announce: { ...context.announce, [kind]: !context.announce[kind] } })),
    refuseDraft: assign(({ context }) => ({ urlProblem: webhookDraftProblem(context.draftUrl, context.saved !== null) })),
    clearMessage: assign({ message: null }),
    showSuccess: assign((_, text: string) => ({ message: { tone: 'success' as const, text } })),
    showError: assign((_, error: unknown) => ({ message: { tone: 'error' as const, text: errorText(error, DISCORD_PANEL_TEXTS.actionFailed) } })),
  },
});

/** What `loaded` and `rechecking` both answer: edits, Save, Send Test Message, Remove Webhook, Refresh. */
const loadedEvents = {
  // Editing starts a new attempt: the last outcome's message goes.
  'url.change': { actions: ['clearMessage', { type: 'assignUrl', params: ({ event }: { event: { url: string } }) => event.url }] },
  'announce.toggle': { actions: ['clearMessage', { type: 'toggleAnnounce', params: ({ event }: { event: { kind: AnnounceKind } }) => event.kind }] },
  'pingTeams.toggle': { actions: ['clearMessage', 'togglePingTeams'] },
  'discord.save': [{ guard: 'isDraftSendable', target: 'saving', actions: 'clearMessage' }, { actions: 'refuseDraft' }],
  'discord.test': { guard: 'hasSaved', target: 'testing', actions: 'clearMessage' },
  'discord.delete': { guard: 'hasSaved', target: 'deleting', actions: 'clearMessage' },
  'discord.reload': { target: 'loading', actions: 'clearMessage' },
} as const;

/**
 * The Discord panel of an event (docs/server.md §10): the list-loader load step (listLoader.ts):
 * `loading` reads the settings (`loadSettings`) → `loaded`, or `failed` with the load's error
 * text in `error` (`discord.reload` tries again). In `loaded` the URL
 * field, the four announce switches and 'Ping teams' (docs/server.md §19) are edited; `discord.save` sends them (`saving`) when
 * the draft passes webhookDraftProblem (else the exact refusal shows under the field);
 * `discord.test` posts a test message (`testing`) and `discord.delete` removes the webhook
 * (`deleting`), both only with a saved webhook. Each action ends back in `loaded` with its
 * success text or the server's error (cleared by the next edit); the saved state ('active', 'failing', 'disabled') and
 * last_error show from `saved`, and `discord.reload` reads them again. With a webhook saved, every
 * DISCORD_RECHECK_MS in `loaded` the panel reads them again by itself (`rechecking`, which takes
 * the same events as `loaded` and keeps the draft, the switches and the message; a failed read
 * changes nothing and the next one tries again).
 */
export const discordSettingsMachine = discordSettingsSetup.createMachine({
  id: 'discordSettings',
  context: { saved: null, draftUrl: '', announce: ALL_ON, pingTeams: false, urlProblem: null, message: null, error: null },
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: settingsLoad.load() },
    failed: {
      on: { 'discord.reload': { target: 'loading', actions: 'clearMessage' } },
    },
    loaded: {
      after: { settingsRecheck: { guard: 'hasSaved', target: 'rechecking' } },
      on: loadedEvents,
    },
    rechecking: {
      invoke: {
        id: 'recheckSettings',
        src: 'loadSettings',
        onDone: { target: 'loaded', actions: { type: 'assignSavedState', params: ({ event }) => event.output } },
        onError: { target: 'loaded' },
      },
      on: loadedEvents,
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => ({ webhookUrl: context.draftUrl.trim() === '' ? null : context.draftUrl.trim(), announce: context.announce, pingTeams: context.pingTeams }),
        onDone: { target: 'loaded', actions: [{ type: 'assignSaved', params: ({ event }) => event.output }, { type: 'showSuccess', params: DISCORD_PANEL_TEXTS.saved }] },
        onError: { target: 'loaded', actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    testing: {
      tags: ['busy'],
      invoke: {
        id: 'testWebhook',
        src: 'testWebhook',
        onDone: { target: 'loaded', actions: { type: 'showSuccess', params: DISCORD_PANEL_TEXTS.tested } },
        onError: { target: 'loaded', actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteSettings',
        src: 'deleteSettings',
        onDone: { target: 'loaded', actions: [{ type: 'assignSaved', params: null }, { type: 'showSuccess', params: DISCORD_PANEL_TEXTS.removed }] },
        onError: { target: 'loaded', actions: { type: 'showError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
  },
});
