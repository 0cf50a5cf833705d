// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { DISCORD_LINK_MESSAGES, type DiscordLink } from '../../contract/discordLink';
import type { ClanMembership } from '../../contract/user';
import { discordLinkMachine, type DiscordLinkEvent, type DiscordLinkInput } from '../../machines/discordLink.machine';
import { DiscordLinkPage } from '../../src/features/discordLink/DiscordLinkPage';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';
import { fakeUser, renderRoutes, signedInSessionLogic } from '../support/render';

/**
 * Model-based test of the /discord/link/{code} page, the discordLink chart (docs/server.md §19
 * "Slash commands"), through the rendered page for a user who manages no clan, one clan, or two
 * (and is a plain Member of a third, never offered): picking a clan, 'Link to Discord', the confirm
 * dialog (Cancel, Link), the link made, refused (403: the server's text, pick again) or the code
 * gone (404: the server's text, nothing more to do).
 */

type Snap = SnapshotFrom<typeof discordLinkMachine>;
type Event = DiscordLinkEvent | ActorSteps<'linkGuild', DiscordLink>;

interface World {
  fx: FakeEffects;
  user: ReturnType<typeof userEvent.setup>;
}

const CODE = 'q1w2e3r4t5y6u7i8o9p0aA';
const membership = (clan_id: number, name: string, role: ClanMembership['role']): ClanMembership => ({ clan_id, name, role, joined_at: '2026-11-01T10:00:00.000Z' });
const IRON = membership(42, 'Iron <b>Legion</b>', 'Owner');
const RUNE = membership(43, 'Rune Raiders', 'Admin');
const BRONZE = membership(44, 'Bronze Brigade', 'Member');
/** The clans each input's user belongs to, and the page's chart input (the managed ones). */
const CASES: { memberships: ClanMembership[]; input: DiscordLinkInput }[] = [
  { memberships: [BRONZE], input: { code: CODE, clans: [] } },
  { memberships: [IRON, BRONZE], input: { code: CODE, clans: [{ clan_id: 42, name: IRON.name }] } },
  { memberships: [IRON, RUNE, BRONZE], input: { code: CODE, clans: [{ clan_id: 42, name: IRON.name }, { clan_id: 43, name: RUNE.name }] } },
];

const failure = (message: string, status: number) => Object.assign(new Error(message), { status });
const GONE = failure(DISCORD_LINK_MESSAGES.unknownCode, 404);
const NOT_MANAGER = failure(DISCORD_LINK_MESSAGES.notManager, 403);

function render(input: unknown): World {
  const { clans } = input as DiscordLinkInput;
  const memberships = CASES.find((c) => c.input.clans.length === clans.length)!.memberships;
  const fx = new FakeEffects();
  renderRoutes(
    [{ path: '/discord/link/:code', element: <DiscordLinkPage effects={{ linkGuild: fx.fn('link') }} /> }],
    `/discord/link/${CODE}`,
    signedInSessionLogic(fakeUser({ clan_memberships_list: memberships })),
  );
  return { fx, user: userEvent.setup() };
}

const settle = (w: World, e: Event) => act(() => w.fx.settle('link', e));
// hidden: true, as the open dialog hides the page behind it from the accessibility tree (aria-hidden).
const linkButton = () => screen.queryByRole('button', { name: 'Link to Discord', hidden: true }) as HTMLButtonElement | null;
const dialog = () => screen.queryByTestId('discord-link-confirm');
const nameOf = (s: Snap, id: number | null) => s.context.clans.find((c) => c.clan_id === id)?.name;

/** The form: one radio per managed clan (names as text, a Member's clan never), the pick, the button and the last refusal. */
async function formShows(s: Snap): Promise<void> {
  const page = await screen.findByTestId('discord-link-page');
  const radios = within(page).getAllByRole('radio', { hidden: true }) as HTMLInputElement[];
  expect(radios.map((r) => r.parentElement!.textContent!.trim())).toEqual(s.context.clans.map((c) => c.name));
  expect(page.textContent).not.toContain(BRONZE.name);
  expect(page.querySelector('b')).toBeNull();
  expect(radios.map((r) => r.checked)).toEqual(s.context.clans.map((c) => c.clan_id === s.context.clanId));
  expect(linkButton()!.disabled).toBe(s.context.clanId === null || !s.matches('choosing'));
  if (s.context.error) expect(screen.getByTestId('discord-link-error').textContent).toBe(s.context.error);
  else expect(screen.queryByTestId('discord-link-error')).toBeNull();
}

modelTests<Snap, Event, World>({
  name: 'discordLink',
  machine: discordLinkMachine,
  inputs: CASES.map((c) => c.input),
  passingThrough: ['starting'],
  // A form back from Cancel is a state of its own, so Cancel gets a path that shows the form unchanged.
  serialize: (s, event?: Event) => JSON.stringify([s.value, s.context.clanId, s.context.error, event?.type === 'link.cancel']),
  events: (s) => {
    if (s.matches('choosing')) {
      return [
        ...s.context.clans.filter((c) => c.clan_id !== s.context.clanId).map((c) => ({ type: 'clan.pick' as const, clanId: c.clan_id })),
        ...(s.context.clanId !== null ? [{ type: 'link.request' as const }] : []),
      ];
    }
    if (s.matches('confirming')) return [{ type: 'link.confirm' }, { type: 'link.cancel' }];
    if (s.matches('linking')) {
      return [
        { type: 'xstate.done.actor.linkGuild', output: { guild_id: '613425648685547541', clan_id: s.context.clanId! } },
        { type: 'xstate.error.actor.linkGuild', error: NOT_MANAGER },
        { type: 'xstate.error.actor.linkGuild', error: GONE },
      ];
    }
    return [];
  },
  executors: {
    'clan.pick': async (w, { event, prev }) => {
      const name = nameOf(prev, (event as { clanId: number }).clanId)!;
      await w.user.click(screen.getByRole('radio', { name }));
    },
    'link.request': async (w) => w.user.click(linkButton()!),
    'link.confirm': async (w) => w.user.click(within(dialog()!).getByRole('button', { name: 'Link' })),
    'link.cancel': async (w) => w.user.click(within(dialog()!).getByRole('button', { name: 'Cancel' })),
    'xstate.done.actor.linkGuild': (w, { event }) => settle(w, event),
    'xstate.error.actor.linkGuild': (w, { event }) => settle(w, event),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    noClans: async () => {
      expect((await screen.findByTestId('discord-link-no-clans')).textContent).toBe('Only an Owner or Admin of a clan can link it to a Discord server, and you manage no clan.');
      expect(linkButton()).toBeNull();
    },
    choosing: async (s) => {
      await formShows(s);
      expect(dialog()).toBeNull();
    },
    confirming: async (s) => {
      await formShows(s);
      expect(within(dialog()!).getByText(`Link the Discord server to ${nameOf(s, s.context.clanId)}? A link it or ${nameOf(s, s.context.clanId)} had before is replaced.`)).toBeTruthy();
      expect((within(dialog()!).getByRole('button', { name: 'Link' }) as HTMLButtonElement).disabled).toBe(false);
    },
    linking: async (s, w) => {
      await formShows(s);
      expect(within(dialog()!).getByText('Linking...')).toBeTruthy();
      expect((within(dialog()!).getByRole('button', { name: 'Link' }) as HTMLButtonElement).disabled).toBe(true);
      expect(w.fx.calls('link').at(-1)).toEqual([CODE, s.context.clanId]);
    },
    linked: async (s) => {
      const name = nameOf(s, s.context.link!.clan_id)!;
      expect((await screen.findByTestId('discord-link-done')).textContent).toBe(`${name} is linked to the Discord server. Try /snl status there.`);
      expect(screen.getByRole('link', { name: `Open ${name}` }).getAttribute('href')).toBe(`/clans/manage/${s.context.link!.clan_id}/members`);
      expect(dialog()).toBeNull();
      expect(linkButton()).toBeNull();
    },
    unavailable: async (s) => {
      expect((await screen.findByTestId('discord-link-unavailable')).textContent).toBe(DISCORD_LINK_MESSAGES.unknownCode);
      expect(s.context.error).toBe(DISCORD_LINK_MESSAGES.unknownCode);
      expect(linkButton()).toBeNull();
      expect(dialog()).toBeNull();
    },
  },
  render,
  guards: (paths) => {
    // Two clans: the second is picked and linked (what the server gets is the pick, not the first).
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('linked') && st.state.context.link?.clan_id === 43))).toBe(true);
    // The 403 comes back to the form with the server's text.
    expect(paths.some((p) => p.steps.some((st) => st.state.matches('choosing') && st.state.context.error === DISCORD_LINK_MESSAGES.notManager))).toBe(true);
  },
});
