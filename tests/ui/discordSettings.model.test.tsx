// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { DISCORD_PANEL_TEXTS, WEBHOOK_STATE_TEXT, WEBHOOK_URL_MESSAGE, type DiscordSettings } from '../../contract/discord';
import { DISCORD_RECHECK_MS, discordSettingsMachine, type DiscordSettingsEvent, type SaveDiscordInput } from '../../machines/discordSettings.machine';
import { DiscordPanel, type DiscordEffects } from '../../src/features/discord/DiscordPanel';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { useFakeTimersPerTest } from '../support/timers';

/**
 * Model-based test of the discordSettings chart (the event's 'Discord' panel, docs/server.md
 * §10) through the rendered panel: shortest paths of the real chart, each step caused
 * through the screen (typing a URL, a switch, Save, Send Test Message, Remove Webhook,
 * Refresh/Retry, and the fake server answering or refusing each call) and every state asserted
 * on the screen: the masked URL, the webhook's state and last error, the exact refusal text of
 * a bad URL, the busy texts, and the outcome of each action.
 */

type Snap = SnapshotFrom<typeof discordSettingsMachine>;
const RECHECK = 'xstate.after.settingsRecheck.discordSettings.loaded';
type ModelEvent =
  | DiscordSettingsEvent
  | { type: typeof RECHECK }
  | { type: 'xstate.done.actor.recheckSettings'; output: DiscordSettings | null }
  | { type: 'xstate.error.actor.recheckSettings'; error: Error }
  | { type: 'xstate.done.actor.loadSettings'; output: DiscordSettings | null }
  | { type: 'xstate.error.actor.loadSettings'; error: Error }
  | { type: 'xstate.done.actor.saveSettings'; output: DiscordSettings }
  | { type: 'xstate.error.actor.saveSettings'; error: Error }
  | { type: 'xstate.done.actor.testWebhook' }
  | { type: 'xstate.error.actor.testWebhook'; error: Error }
  | { type: 'xstate.done.actor.deleteSettings' }
  | { type: 'xstate.error.actor.deleteSettings'; error: Error };

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
  /** Settings reads the test has answered (a read the panel dropped included). */
  loadsSettled: number;
}

const GOOD_URL = 'https://discord.com/api/webhooks/123456789/Secret_Token-abcdefgh';
const BAD_URL = 'https://discord.com@evil.example/api/webhooks/1/abc';
const LOAD_ERROR = 'Network error. Failed to connect to the server.';
const TEST_ERROR = 'Discord answered 404: {"message": "Unknown Webhook", "code": 10015} The webhook was deleted or its URL is wrong: save a new webhook URL.';
const DELETE_ERROR = 'Permission denied. You are not authorized to manage this clan.';
const DISABLED: DiscordSettings = {
  webhook_url_masked: 'https://discord.com/api/webhooks/42/••••••••wxyz',
  announce: { status: true, rolls: true, reviews: true, results: true },
  state: 'disabled',
  last_error: 'Discord answered 404: <b>Unknown Webhook</b> The webhook was deleted or its URL is wrong: save a new webhook URL.',
  ping_teams: false,
};
/** What the background read finds after the worker's failed deliveries. */
const FAILING: DiscordSettings = {
  webhook_url_masked: 'https://discord.com/api/webhooks/123456789/••••••••efgh',
  announce: { status: true, rolls: false, reviews: true, results: true },
  state: 'failing',
  last_error: 'Discord answered 503: upstream unavailable',
  ping_teams: true,
};
const ACTIVE: DiscordSettings = {
  webhook_url_masked: 'https://discord.com/api/webhooks/123456789/••••••••efgh',
  announce: { status: true, rolls: false, reviews: true, results: true },
  state: 'active',
  last_error: null,
  ping_teams: true,
};

function eventsOf(s: Snap): ModelEvent[] {
  switch (s.value as string) {
    case 'loading':
      return [
        { type: 'xstate.done.actor.loadSettings', output: DISABLED },
        { type: 'xstate.done.actor.loadSettings', output: null },
        { type: 'xstate.error.actor.loadSettings', error: new Error(LOAD_ERROR) },
      ];
    case 'failed':
      return [{ type: 'discord.reload' }];
    case 'loaded': {
      // Kept small on purpose: a good URL unless typed, a bad one only into an empty field, the
      // switch only off (one edge each way is enough to tell the draft is sent as shown).
      const { draftUrl, announce, pingTeams, saved, message } = s.context;
      // A webhook the background read found failing is the end of its path: every edit and action
      // from here is already driven from the other saved states.
      if (saved?.state === 'failing') return [];
      return [
        ...(draftUrl !== GOOD_URL ? [{ type: 'url.change', url: GOOD_URL } as const] : []),
        ...(draftUrl === '' ? [{ type: 'url.change', url: BAD_URL } as const] : []),
        ...(announce.rolls ? [{ type: 'announce.toggle', kind: 'rolls' } as const] : []),
        // 'Ping teams' both ways, only once Rolls is off (one more variation, not a copy of every path).
        ...(!announce.rolls ? [{ type: 'pingTeams.toggle' } as const] : []),
        { type: 'discord.save' },
        ...(saved ? [{ type: 'discord.test' } as const, { type: 'discord.delete' } as const] : []),
        ...(message === null ? [{ type: 'discord.reload' } as const] : []),
        // The background read from a quiet panel only (nothing typed, no outcome shown): enough
        // to reach each of its outcomes without multiplying every other path.
        ...(saved && message === null && draftUrl === '' ? [{ type: RECHECK } as const] : []),
      ];
    }
    case 'rechecking': {
      // The background read: what it finds (a webhook now failing, or gone), a failed read, an
      // edit made while it runs (kept), and, from the panel as the read found it, every action the
      // form offers meanwhile (the read is dropped); a bad URL typed meanwhile is refused on Save.
      const { draftUrl, announce, urlProblem } = s.context;
      const quiet = draftUrl === '' && announce.rolls && urlProblem === null;
      return [
        { type: 'xstate.done.actor.recheckSettings', output: FAILING },
        { type: 'xstate.done.actor.recheckSettings', output: null },
        { type: 'xstate.error.actor.recheckSettings', error: new Error(LOAD_ERROR) },
        ...(draftUrl !== GOOD_URL ? [{ type: 'url.change', url: GOOD_URL } as const] : []),
        ...(quiet
          ? ([{ type: 'url.change', url: BAD_URL }, { type: 'announce.toggle', kind: 'rolls' }, { type: 'discord.save' }, { type: 'discord.test' }, { type: 'discord.delete' }, { type: 'discord.reload' }] as const)
          : []),
        ...(draftUrl === BAD_URL && urlProblem === null ? [{ type: 'discord.save' } as const] : []),
      ];
    }
    case 'saving':
      return [
        { type: 'xstate.done.actor.saveSettings', output: ACTIVE },
        { type: 'xstate.error.actor.saveSettings', error: new Error(WEBHOOK_URL_MESSAGE) },
      ];
    case 'testing':
      return [{ type: 'xstate.done.actor.testWebhook' }, { type: 'xstate.error.actor.testWebhook', error: new Error(TEST_ERROR) }];
    case 'deleting':
      return [{ type: 'xstate.done.actor.deleteSettings' }, { type: 'xstate.error.actor.deleteSettings', error: new Error(DELETE_ERROR) }];
    default:
      return [];
  }
}

/**
 * What the screen can tell apart: the state, the saved webhook's state, the draft, one switch, the
 * refusal and the outcome; whether a background read just failed (a state of its own, so a path
 * shows the panel unchanged after it); and a state a person's action left `rechecking` or
 * `failed` for, so the action taken there gets a path of its own.
 */
const serialize = (s: Snap, event?: ModelEvent, prev?: Snap) =>
  JSON.stringify([
    event?.type === 'xstate.error.actor.recheckSettings',
    event && !event.type.startsWith('xstate.') && prev && (prev.matches('rechecking') || prev.matches('failed')) ? `by ${event.type} from ${String(prev.value)}` : null,
    s.value,
    s.context.saved?.state ?? null,
    s.context.draftUrl === '' ? '' : s.context.draftUrl === GOOD_URL ? 'good' : 'bad',
    s.context.announce.rolls,
    s.context.pingTeams,
    s.context.urlProblem !== null,
    s.context.message?.text ?? null,
  ]);

const settle = (w: World, name: string, e: ModelEvent) =>
  act(() => (e.type.startsWith('xstate.done') ? w.fx.resolve(name, 'output' in e ? e.output : undefined) : w.fx.reject(name, (e as { error: Error }).error)));

/**
 * Answers the settings read under way: first any read the panel dropped (an action taken while it
 * read in the background; the chart no longer listens to it), then the latest as `e` says.
 */
async function settleLoad(w: World, e: ModelEvent) {
  while (w.loadsSettled < w.fx.calls('load').length - 1) {
    await act(() => w.fx.resolve('load', null));
    w.loadsSettled += 1;
  }
  await settle(w, 'load', e);
  w.loadsSettled += 1;
}
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;
const panel = () => screen.getByTestId('discord-panel');

const executors = {
  'xstate.done.actor.loadSettings': (w, { event }) => settleLoad(w, event),
  'xstate.error.actor.loadSettings': (w, { event }) => settleLoad(w, event),
  'xstate.done.actor.recheckSettings': (w, { event }) => settleLoad(w, event),
  'xstate.error.actor.recheckSettings': (w, { event }) => settleLoad(w, event),
  [RECHECK]: async (w) => {
    const loads = w.fx.calls('load').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(DISCORD_RECHECK_MS);
    });
    // The panel read the settings again by itself.
    expect(w.fx.calls('load')).toHaveLength(loads + 1);
  },
  'xstate.done.actor.saveSettings': (w, { event }) => settle(w, 'save', event),
  'xstate.error.actor.saveSettings': (w, { event }) => settle(w, 'save', event),
  'xstate.done.actor.testWebhook': (w, { event }) => settle(w, 'test', event),
  'xstate.error.actor.testWebhook': (w, { event }) => settle(w, 'test', event),
  'xstate.done.actor.deleteSettings': (w, { event }) => settle(w, 'delete', event),
  'xstate.error.actor.deleteSettings': (w, { event }) => settle(w, 'delete', event),
  'url.change': async (_w, { event }) => {
    fireEvent.change(screen.getByLabelText('Webhook URL'), { target: { value: (event as { url: string }).url } });
  },
  'announce.toggle': (w) => w.user.click(screen.getByRole('checkbox', { name: 'Rolls' })),
  'pingTeams.toggle': (w) => w.user.click(screen.getByRole('switch', { name: 'Ping teams' })),
  'discord.save': (w) => w.user.click(button('Save')),
  'discord.test': (w) => w.user.click(button('Send Test Message')),
  'discord.delete': (w) => w.user.click(button('Remove Webhook')),
  'discord.reload': (w, { prev }) => w.user.click(button(prev.matches('failed') ? 'Retry' : 'Refresh')),
} satisfies Record<ModelEvent['type'], ModelExecutor<World, Snap, ModelEvent>>;

/** The form as the context says: the draft, the switches, the refusal, the saved webhook, the outcome. */
function formShows(s: Snap): void {
  expect((screen.getByLabelText('Webhook URL') as HTMLInputElement).value).toBe(s.context.draftUrl);
  expect((screen.getByRole('checkbox', { name: 'Rolls' }) as HTMLInputElement).checked).toBe(s.context.announce.rolls);
  expect((screen.getByRole('checkbox', { name: 'Game status changes' }) as HTMLInputElement).checked).toBe(s.context.announce.status);
  expect((screen.getByRole('switch', { name: 'Ping teams' }) as HTMLInputElement).checked).toBe(s.context.pingTeams);
  if (s.context.urlProblem) expect(screen.getByTestId('discord-url-problem').textContent).toBe(WEBHOOK_URL_MESSAGE);
  else expect(screen.queryByTestId('discord-url-problem')).toBeNull();
  const saved = s.context.saved;
  if (saved) {
    expect(screen.getByTestId('discord-masked-url').textContent).toBe(saved.webhook_url_masked);
    expect(screen.getByTestId('discord-state').textContent).toBe(WEBHOOK_STATE_TEXT[saved.state]);
    if (saved.last_error) {
      // Discord's answer is shown as text: its markup is not parsed.
      expect(screen.getByTestId('discord-last-error').textContent).toBe(`Last error: ${saved.last_error}`);
      expect(screen.getByTestId('discord-last-error').querySelector('b')).toBeNull();
    } else expect(screen.queryByTestId('discord-last-error')).toBeNull();
  } else {
    expect(screen.getByTestId('discord-none').textContent).toBe('No webhook is set: nothing is announced on Discord.');
  }
  if (s.context.message) expect(screen.getByTestId('discord-message').textContent).toBe(s.context.message.text);
  else expect(screen.queryByTestId('discord-message')).toBeNull();
}

function loadedShows(s: Snap, phase: 'loaded' | 'rechecking'): void {
  expect(panel().dataset.phase).toBe(phase);
  expect(screen.queryByText('Loading Discord settings...')).toBeNull();
  expect(button('Save').disabled).toBe(false);
  expect(button('Send Test Message').disabled).toBe(s.context.saved === null);
  expect(button('Remove Webhook').disabled).toBe(s.context.saved === null);
  formShows(s);
}

function busyShows(s: Snap, text: string): void {
  expect(panel().dataset.phase).toBe(s.value);
  expect(screen.getByText(text)).toBeTruthy();
  expect(button('Save').disabled).toBe(true);
  expect(button('Send Test Message').disabled).toBe(true);
  expect(button('Remove Webhook').disabled).toBe(true);
  formShows(s);
}

useFakeTimersPerTest();

modelTests<Snap, ModelEvent, World>({
  name: 'discordSettings',
  machine: discordSettingsMachine,
  events: eventsOf,
  serialize,
  // Each path ends where it first reaches a state no shorter path reached: prefixes repeat steps.
  dropPrefixPaths: true,
  executors,
  assertions: {
    loading: (_s, w) => {
      expect(panel().dataset.phase).toBe('loading');
      // A read is under way that the test has not answered yet (the first, or a Retry / Refresh).
      expect(w.fx.calls('load').length).toBeGreaterThan(w.loadsSettled);
      expect(screen.getByText('Loading Discord settings...')).toBeTruthy();
      expect(screen.queryByLabelText('Webhook URL')).toBeNull();
    },
    failed: (s) => {
      expect(s.context.error).toBe(LOAD_ERROR);
      expect(screen.getByRole('alert').textContent).toBe(LOAD_ERROR);
      expect(button('Retry')).toBeTruthy();
      expect(screen.queryByLabelText('Webhook URL')).toBeNull();
    },
    loaded: (s) => loadedShows(s, 'loaded'),
    // Reading again in the background looks like loaded: no spinner, the form and its edits stay.
    rechecking: (s) => loadedShows(s, 'rechecking'),
    saving: (s, w) => {
      busyShows(s, 'Saving...');
      expect(w.fx.calls('save').at(-1)).toEqual([7, 3, { webhookUrl: s.context.draftUrl === '' ? null : s.context.draftUrl, announce: s.context.announce, pingTeams: s.context.pingTeams }]);
    },
    testing: (s) => busyShows(s, 'Sending test message...'),
    deleting: (s) => busyShows(s, 'Removing webhook...'),
  },
  render: () => {
    const fx = new FakeEffects();
    const effects: DiscordEffects = {
      fetchDiscordSettings: fx.fn('load'),
      saveDiscordSettings: (clanId, eventId, webhookUrl, announce, pingTeams = false) => fx.fn('save')(clanId, eventId, { webhookUrl, announce, pingTeams } satisfies SaveDiscordInput),
      testDiscordWebhook: fx.fn('test'),
      deleteDiscordSettings: fx.fn('delete'),
    };
    render(<DiscordPanel clanId={7} eventId={3} effects={effects} />);
    return { fx, user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }), loadsSettled: 0 };
  },
  guards: (paths) => {
    // The texts of docs/server.md §10 and of the panel are reached: the refusal, each outcome, a disabled webhook.
    const messages = new Set(paths.flatMap((p) => p.steps.flatMap((st) => [st.state.context.message?.text, st.state.context.error])));
    for (const text of [DISCORD_PANEL_TEXTS.saved, DISCORD_PANEL_TEXTS.tested, DISCORD_PANEL_TEXTS.removed, WEBHOOK_URL_MESSAGE, TEST_ERROR, DELETE_ERROR, LOAD_ERROR]) {
      expect(messages.has(text), text).toBe(true);
    }
    expect(paths.some((p) => p.steps.some((st) => st.state.context.urlProblem === WEBHOOK_URL_MESSAGE))).toBe(true);
    // The background read shows a webhook the worker marked failing, with a typed draft kept.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('loaded') && st.state.context.saved?.state === 'failing'))).toBe(true);
    expect(paths.some((p) => p.steps.some((st, i) => st.state.matches('loaded') && st.state.context.draftUrl === GOOD_URL && p.steps[i - 1]?.state.matches('rechecking')))).toBe(true);
    // What Save sends: a typed URL, or null to keep the saved one.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('saving') && st.state.context.draftUrl === '' && st.state.context.saved !== null))).toBe(true);
    // 'Ping teams' is sent as switched (docs/server.md §19).
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('saving') && st.state.context.pingTeams))).toBe(true);
  },
});
