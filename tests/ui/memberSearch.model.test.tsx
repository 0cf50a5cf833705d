// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useActorRef } from '@xstate/react';
import { expect, vi } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { memberSearchMachine, type MemberSearchEvent, type SearchedUser } from '../../machines/memberSearch.machine';
import { MEMBER_SEARCH_TEXTS as T, MemberSearchBox } from '../../src/features/clan/MemberSearchBox';
import { modelTests, type ModelExecutor } from '../support/chartModel';
import { FakeEffects } from '../support/effects';

/**
 * Model-based test of Add Member's search by name, the memberSearch chart (docs/client.md §5;
 * docs/server.md §18), through the rendered search box: a short text (no search, the hint to type
 * 3 characters), a searchable one (searching only 300 ms after the last change, on fake time), the
 * answer with users whose name starts with it or none, and a failure with the server's text;
 * every state asserted on the screen.
 */

type Snap = SnapshotFrom<typeof memberSearchMachine>;
type Done = { type: 'xstate.done.actor.0.memberSearch.searching'; output: SearchedUser[] };
type Failed = { type: 'xstate.error.actor.0.memberSearch.searching'; error: Error };
type Event = MemberSearchEvent | Done | Failed | { type: 'xstate.after.debounce.memberSearch.typing' };

const CLAN = 7;
const SHORT = 'ze';
const TEXT = ' Zez ';
const LONGER = 'Zezi';
const FOUND: SearchedUser[] = [{ id: 3, username: 'friend' }, { id: 9, username: 'Zezima' }];
const NONE: SearchedUser[] = [{ id: 3, username: 'friend' }];
const FAILURE = 'Type at least 3 characters to search by name.';

interface World {
  /** The chart's searches, `searchUsers(clanId, q)`, each answered by the path's step. */
  fx: FakeEffects;
}

function events(s: Snap): Event[] {
  // A text like the one in the box changes nothing (the browser sends no change): each change types another.
  const typed: Event[] = [SHORT, TEXT, LONGER].filter((text) => text !== s.context.text).map((text) => ({ type: 'search.change' as const, text }));
  if (s.matches('typing')) return [...typed, { type: 'xstate.after.debounce.memberSearch.typing' }];
  if (s.matches('searching'))
    return [
      ...typed,
      { type: 'xstate.done.actor.0.memberSearch.searching', output: FOUND },
      { type: 'xstate.done.actor.0.memberSearch.searching', output: NONE },
      { type: 'xstate.error.actor.0.memberSearch.searching', error: new Error(FAILURE) },
    ];
  return typed;
}

const input = () => screen.getByTestId('member-search-input') as HTMLInputElement;
const status = () => screen.getByTestId('member-search-status').textContent;

/** Answers the search the chart just made as the path's step says: always the trimmed text, for the clan. */
function answerSearch(w: World, step: Done | Failed): Promise<void> {
  const [clanId, q] = w.fx.waitingCall('searchUsers');
  expect(clanId).toBe(CLAN);
  expect([TEXT.trim(), LONGER]).toContain(q);
  return w.fx.settle('searchUsers', step);
}

/** The box as the dialog renders it, with the chart's search given by the test. */
function Box({ w }: { w: World }) {
  const search = w.fx.fn<SearchedUser[]>('searchUsers');
  const actor = useActorRef(memberSearchMachine.provide({ actors: { searchUsers: fromPromise(({ input: i }: { input: { clanId: number; q: string } }) => search(i.clanId, i.q)) } }), { input: { clanId: CLAN } });
  return <MemberSearchBox actor={actor} />;
}

modelTests<Snap, Event, World>({
  name: 'memberSearch',
  machine: memberSearchMachine,
  events,
  inputs: [{ clanId: CLAN }],
  fakeTimers: 'manual',
  executors: {
    'search.change': async (w, { event, prev }) => {
      // A search under way is dropped by the change: its answer will never be shown.
      if (prev.matches('searching')) w.fx.drop('searchUsers');
      act(() => void fireEvent.change(input(), { target: { value: (event as MemberSearchEvent).text } }));
    },
    'xstate.after.debounce.memberSearch.typing': async () => act(async () => void (await vi.advanceTimersByTimeAsync(300))),
    'xstate.done.actor.0.memberSearch.searching': (w, { event }) => act(() => answerSearch(w, event as Done)),
    'xstate.error.actor.0.memberSearch.searching': (w, { event }) => act(() => answerSearch(w, event as Failed)),
  } satisfies Record<Event['type'], ModelExecutor<World, Snap, Event>>,
  assertions: {
    idle: (s) => {
      expect(input().value).toBe(s.context.text);
      expect(status()).toBe(s.context.text.trim() === '' ? T.hint : T.tooShort);
      expect(screen.queryByTestId('member-search-error')).toBeNull();
    },
    typing: (s, w) => {
      expect(input().value).toBe(s.context.text);
      expect(status()).toBe(T.searching);
      // Nothing is asked until the typing stops for 300 ms.
      expect(w.fx.waiting('searchUsers')).toBe(0);
    },
    searching: (s) => {
      expect(input().value).toBe(s.context.text);
      expect(input().getAttribute('aria-busy')).toBe('true');
      expect(status()).toBe(T.searching);
    },
    found: (s) => {
      expect(input().getAttribute('aria-busy')).toBe('false');
      const q = s.context.text.trim();
      expect(status()).toBe(s.context.results === FOUND ? T.found(1, q) : T.none(q));
      expect(screen.queryByTestId('member-search-error')).toBeNull();
    },
    failed: () => {
      expect(screen.getByTestId('member-search-error').textContent).toBe(FAILURE);
      expect(status()).toBe('');
    },
  },
  guards: (paths) => {
    // Both answers and the failure are on some path (a change while searching is taken there: the harness checks every offered event).
    const ends = new Set(paths.map((p) => (p.state.matches('found') ? `found:${p.state.context.results?.length}` : String(p.state.value))));
    for (const end of ['found:2', 'found:1', 'failed']) expect(ends).toContain(end);
  },
  render: () => {
    const w: World = { fx: new FakeEffects() };
    render(<Box w={w} />);
    return w;
  },
});
