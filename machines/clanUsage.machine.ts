import { assign, setup } from 'xstate';
import type { ClanUsage } from '../contract/quotas';
import { loadStep } from './listLoader';

export type ClanUsageEvent = { type: 'usage.reload' };

/** What the chart holds: the clan it reads, its last figures and the failure text of the last try. */
export interface ClanUsageContext {
  clanId: number;
  usage: ClanUsage | null;
  error: string | null;
}

/** The list-loader load step over one record: the clan's quota figures. */
const usageLoad = loadStep<ClanUsage, ClanUsageContext, 'loadUsage', { clanId: number }>({
  id: 'clanUsage',
  actor: 'loadUsage',
  fallback: 'Failed to load the clan’s usage.',
  input: (context) => ({ clanId: context.clanId }),
  onLoaded: (_, usage) => ({ usage }),
});

/**
 * The managers' quota figures on the clan page (docs/client.md §5; docs/server.md §18 "Quotas"):
 * the list-loader load step (listLoader.ts) over GET /api/clan/{clanId}/usage. `loading` (tag
 * `busy`) runs `loadUsage` and goes to `loaded` with the figures, or `failed` with the error's text
 * (the old figures dropped); `usage.reload` (Refresh, or Retry after a failure) reads them again
 * through `loading`.
 */
export const clanUsageMachine = setup({
  types: {
    context: {} as ClanUsageContext,
    input: {} as { clanId: number },
    events: {} as ClanUsageEvent,
  },
  actors: usageLoad.actors,
  actions: {
    assignLoaded: assign(({ context }, usage: ClanUsage) => usageLoad.loaded(context, usage)),
    assignError: assign((_, error: unknown) => ({ ...usageLoad.failed(error), usage: null })),
  },
}).createMachine({
  id: 'clanUsage',
  context: ({ input }) => ({ clanId: input.clanId, usage: null, error: null }),
  initial: 'loading',
  states: {
    loading: { tags: ['busy'], invoke: usageLoad.load() },
    loaded: { on: { 'usage.reload': 'loading' } },
    failed: { on: { 'usage.reload': 'loading' } },
  },
});
