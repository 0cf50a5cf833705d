import { assign, setup } from 'xstate';
import { missingPromise } from './shared';
import { USER_LOAD_FAILED, type AuthStatus, type User } from '../contract/user';
import { errorText } from '../contract/errorText';

/** Which message the login page shows when signed out (docs/client.md §2). */
export type SignedOutNotice = 'welcome' | 'expired';

export interface SessionContext {
  user: User | null;
  notice: SignedOutNotice;
  devLogin: boolean;
  /** Whether the server has a Discord client (auth status `discord_login`). */
  discordLogin: boolean;
  /** Set when the user load failed and the session was closed (docs/game-rules.md §6). */
  error: string | null;
}

export type SessionEvent =
  | { type: 'session.check' }
  | { type: 'session.devLogin'; username: string }
  | { type: 'session.reload' }
  | { type: 'session.logout' }
  | { type: 'session.logoutEverywhere' }
  | { type: 'onboarding.completed' };

/** Input of the logout actor: end this session only, or every session of the user (docs/server.md §8). */
export interface LogoutInput {
  everywhere: boolean;
}

/** The user of a `loadUser` answer. */
const userOf = ({ event }: { event: { output: User } }) => event.output;

/** Loads the user (first load and refresh): with IGNs ready, else onboarding; a failure closes the session. */
const loadUser = {
  id: 'loadUser',
  src: 'loadUser',
  onDone: [
    { guard: { type: 'hasIgns', params: userOf }, target: 'ready', actions: { type: 'assignUser', params: userOf } },
    { target: 'onboardingNeeded', actions: { type: 'assignUser', params: userOf } },
  ],
  onError: { target: 'userLoadFailed', actions: 'assignLoadError' },
} as const;

/** Ends this session or every session of the user; signed out either way (errors ignored). */
const logOut = (everywhere: boolean) =>
  ({
    id: 'logout',
    src: 'logout',
    input: { everywhere },
    onDone: { target: 'unauthenticated', actions: 'clearSession' },
    onError: { target: 'unauthenticated', actions: 'clearSession' },
  }) as const;

/**
 * The session chart (docs/client.md §2): checks the auth status, loads the user,
 * sends users without IGNs to onboarding, logs out on a failed user load, and logs out on request
 * (errors ignored): `session.logout` ends this session (loggingOut), `session.logoutEverywhere`
 * from the profile's Account & Security panel every session of the user (loggingOutEverywhere);
 * and runs the development sign-in. Effects are the actors checkAuthStatus, loadUser, logout
 * (input LogoutInput) and devLogin, provided from src/.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
  },
  actors: {
    checkAuthStatus: missingPromise<AuthStatus, void>('session', 'checkAuthStatus'),
    loadUser: missingPromise<User, void>('session', 'loadUser'),
    logout: missingPromise<void, LogoutInput>('session', 'logout'),
    devLogin: missingPromise<void, { username: string }>('session', 'devLogin'),
  },
  guards: {
    isAuthorized: (_, status: AuthStatus) => status.authorized,
    hasIgns: (_, user: User) => user.igns.length > 0,
  },
  actions: {
    assignSignedOut: assign((_, status: AuthStatus | null) => ({
      user: null,
      devLogin: status?.dev_login ?? false,
      discordLogin: status?.discord_login ?? false,
      notice: (status && (status.has_token || status.session_keys.length > 0) ? 'expired' : 'welcome') as SignedOutNotice,
    })),
    assignStatus: assign((_, status: AuthStatus) => ({ devLogin: status.dev_login, discordLogin: status.discord_login, error: null })),
    assignUser: assign((_, user: User) => ({ user, error: null })),
    assignLoadError: assign({ user: null, error: USER_LOAD_FAILED }),
    clearSession: assign({ user: null, notice: 'welcome' as SignedOutNotice, error: null }),
    assignSignInError: assign((_, error: unknown) => ({
      error: errorText(error, 'Sign-in failed.'),
    })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'session',
  context: { user: null, notice: 'welcome', devLogin: false, discordLogin: false, error: null },
  initial: 'checking',
  states: {
    checking: {
      tags: ['busy'],
      invoke: {
        id: 'checkAuthStatus',
        src: 'checkAuthStatus',
        onDone: [
          { guard: { type: 'isAuthorized', params: ({ event }) => event.output }, target: 'loadingUser', actions: { type: 'assignStatus', params: ({ event }) => event.output } },
          { target: 'unauthenticated', actions: { type: 'assignSignedOut', params: ({ event }) => event.output } },
        ],
        onError: { target: 'unauthenticated', actions: { type: 'assignSignedOut', params: null } },
      },
    },
    unauthenticated: {
      on: {
        'session.check': 'checking',
        'session.devLogin': { target: 'signingIn', actions: 'clearError' },
      },
    },
    signingIn: {
      tags: ['busy'],
      invoke: {
        id: 'devLogin',
        src: 'devLogin',
        input: ({ event }) => ({ username: event.type === 'session.devLogin' ? event.username : '' }),
        onDone: 'checking',
        onError: { target: 'unauthenticated', actions: { type: 'assignSignInError', params: ({ event }: { event: { error: unknown } }) => event.error } },
      },
    },
    loadingUser: {
      tags: ['busy'],
      invoke: loadUser,
    },
    userLoadFailed: {
      tags: ['busy'],
      invoke: {
        id: 'logout',
        src: 'logout',
        input: { everywhere: false },
        onDone: 'unauthenticated',
        onError: 'unauthenticated',
      },
    },
    onboardingNeeded: {
      tags: ['authenticated'],
      on: {
        'onboarding.completed': 'loadingUser',
        'session.logout': 'loggingOut',
      },
    },
    ready: {
      tags: ['authenticated'],
      on: {
        'session.reload': 'refreshing',
        'session.logout': 'loggingOut',
        'session.logoutEverywhere': 'loggingOutEverywhere',
      },
    },
    refreshing: {
      tags: ['authenticated'],
      invoke: loadUser,
    },
    loggingOut: {
      tags: ['busy'],
      invoke: logOut(false),
    },
    loggingOutEverywhere: {
      tags: ['busy'],
      invoke: logOut(true),
    },
  },
});
