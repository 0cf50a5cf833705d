import { assign, setup } from 'xstate';
import { missingPromise } from './shared';
import type { ClanSummary } from '../contract/clan';
import type { ClanSetupRole, SetupInput } from '../contract/onboarding';
import { clanSetupError, onboardingIgns } from '../contract/onboarding';
import { errorText } from '../contract/errorText';

export interface OnboardingContext {
  ignText: string;
  igns: string[];
  role: ClanSetupRole;
  clanName: string;
  clanId: number | null;
  clans: ClanSummary[];
  /** A rule or server error shown on the current step. */
  error: string | null;
}

export type OnboardingEvent =
  | { type: 'ign.change'; value: string }
  | { type: 'onboarding.next' }
  | { type: 'onboarding.back' }
  | { type: 'clan.roleSelect'; role: ClanSetupRole }
  | { type: 'clan.nameChange'; value: string }
  | { type: 'clan.select'; clanId: number | null }
  | { type: 'onboarding.submit' };

/** The setup payload built from the chart's context (docs/game-rules.md §12). */
function setupPayload(ctx: OnboardingContext): SetupInput {
  const clan_setup =
    ctx.role === 'Owner'
      ? { role: 'Owner' as const, clan_name: ctx.clanName.trim() }
      : ctx.role === 'Member'
        ? { role: 'Member' as const, clan_id: ctx.clanId ?? 0 }
        : { role: 'None' as const };
  return { igns: ctx.igns, clan_setup };
}

/**
 * The onboarding chart (docs/client.md §2; docs/game-rules.md §6, §13): step 1 IGNs, step 2 clan
 * choice (Owner / Member / None) with the clan list loaded, submit, done or failed, and back.
 * Effects: loadClans and submitSetup (provided from src/); `completed` is an action the route
 * provides to tell the session.
 */
export const onboardingMachine = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
  },
  actors: {
    loadClans: missingPromise<ClanSummary[], void>('onboarding', 'loadClans'),
    submitSetup: missingPromise<{ ign_count: number }, SetupInput>('onboarding', 'submitSetup'),
  },
  guards: {
    ignsValid: ({ context }) => 'igns' in onboardingIgns(context.ignText),
    clanChoiceComplete: ({ context }) => clanSetupError(setupPayload(context).clan_setup) === null,
  },
  actions: {
    assignIgnText: assign((_, value: string) => ({ ignText: value, error: null })),
    assignIgns: assign(({ context }) => {
      const r = onboardingIgns(context.ignText);
      return 'igns' in r ? { igns: r.igns, error: null } : {};
    }),
    assignIgnError: assign(({ context }) => {
      const r = onboardingIgns(context.ignText);
      return { error: 'error' in r ? r.error : null };
    }),
    assignRole: assign((_, role: ClanSetupRole) => ({ role, error: null })),
    assignClanName: assign((_, value: string) => ({ clanName: value, error: null })),
    assignClanId: assign((_, clanId: number | null) => ({ clanId, error: null })),
    assignClans: assign((_, clans: ClanSummary[]) => ({ clans })),
    assignClanError: assign(({ context }) => ({ error: clanSetupError(setupPayload(context).clan_setup) })),
    assignServerError: assign((_, error: unknown) => ({
      error: errorText(error, 'Setup failed. Please try again.'),
    })),
    clearError: assign({ error: null }),
    completed: () => {},
  },
}).createMachine({
  id: 'onboarding',
  context: { ignText: '', igns: [], role: 'None', clanName: '', clanId: null, clans: [], error: null },
  initial: 'ignStep',
  states: {
    ignStep: {
      on: {
        'ign.change': { actions: { type: 'assignIgnText', params: ({ event }) => event.value } },
        'onboarding.next': [
          { guard: 'ignsValid', target: 'clanStep', actions: 'assignIgns' },
          { actions: 'assignIgnError' },
        ],
      },
    },
    clanStep: {
      initial: 'loadingClans',
      on: {
        'clan.roleSelect': { actions: { type: 'assignRole', params: ({ event }) => event.role } },
        'clan.nameChange': { actions: { type: 'assignClanName', params: ({ event }) => event.value } },
        'clan.select': { actions: { type: 'assignClanId', params: ({ event }) => event.clanId } },
        'onboarding.back': { target: 'ignStep', actions: 'clearError' },
        // Taken while the clan list still loads too: an Owner or None choice does not need the
        // list, and a member, who cannot have chosen a clan yet, is told to choose one. Ignored
        // there, a click on Finish did nothing at all, the button looking ready.
        'onboarding.submit': [
          { guard: 'clanChoiceComplete', target: '#onboarding.submitting' },
          { actions: 'assignClanError' },
        ],
      },
      states: {
        loadingClans: {
          invoke: {
            id: 'loadClans',
            src: 'loadClans',
            onDone: { target: 'choosing', actions: { type: 'assignClans', params: ({ event }) => event.output } },
            onError: { target: 'choosing', actions: { type: 'assignClans', params: [] } },
          },
        },
        choosing: {},
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'submitSetup',
        src: 'submitSetup',
        input: ({ context }) => setupPayload(context),
        onDone: { target: 'done' },
        onError: { target: 'failed', actions: { type: 'assignServerError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    failed: {
      on: {
        'clan.roleSelect': { actions: { type: 'assignRole', params: ({ event }) => event.role } },
        'clan.nameChange': { actions: { type: 'assignClanName', params: ({ event }) => event.value } },
        'clan.select': { actions: { type: 'assignClanId', params: ({ event }) => event.clanId } },
        'onboarding.submit': [
          { guard: 'clanChoiceComplete', target: 'submitting' },
          { actions: 'assignClanError' },
        ],
        'onboarding.back': { target: 'ignStep', actions: 'clearError' },
      },
    },
    done: {
      type: 'final',
      entry: 'completed',
    },
  },
});
