// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import type { DinkPost } from '../../contract/dink';
import { DINK_POSTS_POLL_MS, dinkPostsMachine, type DinkPostsEvent } from '../../machines/dinkPosts.machine';
import { DINK_OUTCOME_TEXT } from '../../src/features/dink/dinkTexts';
import { modelTests, type ActorSteps, type ModelExecutor } from '../support/chartModel';
import { dinkButton as button, renderDinkPanel as renderPanel, settleDink as settle, type DinkWorld as World } from '../support/dinkPanel';

/**
 * Model-based test of the Dink panel's recent posts chart, dinkPosts (docs/client.md §7), through
 * the rendered panel: first load, Refresh, the 10 s poll, failures; every state asserted on the
 * screen (the posts with their outcomes, the error beside them).
 */

type PostsSnap = SnapshotFrom<typeof dinkPostsMachine>;
type PostsEvent =
  | DinkPostsEvent
  | ActorSteps<'loadPosts', DinkPost[]>
  | { type: 'xstate.after.pollInterval.dinkPosts.loaded' }
  | { type: 'xstate.after.pollInterval.dinkPosts.failed' };

const POSTS: DinkPost[] = [
  { at: '2026-05-01T10:05:00.000Z', player_name: 'Zezima', type: 'LOOT', summary: 'Dragon warhammer x1 from Lizardman shaman', outcome: 'approved' },
  { at: '2026-05-01T10:04:00.000Z', player_name: 'Woox', type: 'KILL_COUNT', summary: '<b>Vorkath</b> kill count 50', outcome: 'no_match' },
];
const NEWER: DinkPost[] = [{ at: '2026-05-01T10:06:00.000Z', player_name: 'Stranger', type: 'LEVEL', summary: 'Attack level 99', outcome: 'unknown_player' }, ...POSTS];
const POSTS_ERROR = 'Failed to load the recent Dink posts.';

function postsEvents(s: PostsSnap): PostsEvent[] {
  const loads: PostsEvent[] = [
    { type: 'xstate.done.actor.loadPosts', output: s.context.items.length === 0 ? POSTS : s.context.items.length === POSTS.length ? NEWER : [] },
    { type: 'xstate.error.actor.loadPosts', error: new Error('') },
  ];
  if (s.matches('loading')) return [{ type: 'xstate.done.actor.loadPosts', output: [] }, ...loads];
  if (s.matches('reloading')) return loads;
  return [{ type: 'posts.reload' }, { type: `xstate.after.pollInterval.dinkPosts.${s.matches('loaded') ? 'loaded' : 'failed'}` } as PostsEvent];
}

/** The posts as the context says: each row's player, summary (as text) and outcome, and the error beside them. */
function postsShow(s: PostsSnap): void {
  const rows = screen.queryAllByTestId('dink-post');
  expect(rows).toHaveLength(s.context.items.length);
  s.context.items.forEach((p, i) => {
    const row = within(rows[i]);
    expect(row.getByText(p.player_name)).toBeTruthy();
    expect(row.getByText(p.summary)).toBeTruthy();
    expect(rows[i].querySelector('b')).toBeNull();
    expect(row.getByTestId('dink-post-outcome').textContent).toBe(p.outcome);
    expect(row.getByText(DINK_OUTCOME_TEXT[p.outcome])).toBeTruthy();
  });
  if (s.context.error) expect(screen.getByTestId('dink-posts-error').textContent).toBe(POSTS_ERROR);
  else expect(screen.queryByTestId('dink-posts-error')).toBeNull();
}

modelTests<PostsSnap, PostsEvent, World>({
  name: 'dinkPosts',
  machine: dinkPostsMachine,
  events: postsEvents,
  // A reload by the poll is told apart from one by Refresh, so both get paths.
  serialize: (s, e) => JSON.stringify([s.value, e?.type.startsWith('xstate.after') ?? false, s.context.items.length, s.context.error]),
  fakeTimers: true,
  dropPrefixPaths: true,
  executors: {
    'xstate.done.actor.loadPosts': (w, { event }) => settle(w, 'posts', event),
    'xstate.error.actor.loadPosts': (w, { event }) => settle(w, 'posts', event),
    'posts.reload': (w) => w.user.click(within(screen.getByTestId('dink-posts')).getByRole('button', { name: 'Refresh' })),
    'xstate.after.pollInterval.dinkPosts.loaded': async () => act(async () => void vi.advanceTimersByTime(DINK_POSTS_POLL_MS)),
    'xstate.after.pollInterval.dinkPosts.failed': async () => act(async () => void vi.advanceTimersByTime(DINK_POSTS_POLL_MS)),
  } satisfies Record<PostsEvent['type'], ModelExecutor<World, PostsSnap, PostsEvent>>,
  assertions: {
    loading: () => {
      expect(screen.getByText('Loading recent posts...')).toBeTruthy();
      expect(screen.queryAllByTestId('dink-post')).toHaveLength(0);
    },
    loaded: (s) => {
      expect(screen.queryByText('Loading recent posts...')).toBeNull();
      if (s.context.items.length === 0) expect(screen.getByTestId('dink-posts-empty').textContent).toBe('No posts from Dink yet.');
      else expect(screen.queryByTestId('dink-posts-empty')).toBeNull();
      expect(button('Refresh').disabled).toBe(false);
      postsShow(s);
    },
    reloading: (s) => {
      // The list stays while it reloads.
      expect(button('Refreshing...').disabled).toBe(true);
      postsShow(s);
    },
    failed: (s) => {
      expect(screen.getByTestId('dink-posts-error').textContent).toBe(POSTS_ERROR);
      postsShow(s);
    },
  },
  render: () => renderPanel(),
});
