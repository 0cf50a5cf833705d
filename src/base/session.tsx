import { createActorContext } from '@xstate/react';
import type { ReactNode } from 'react';
import { sessionMachine } from '../../machines/session.machine';
import { devLogin, fetchAuthStatus, fetchUser, postLogout } from '../api/session';
import { fromPromise } from 'xstate';
import { whenIdle } from './idle';

/** App-lifetime session actor (docs/architecture.md §3: createActorContext). */
export const SessionContext = createActorContext(sessionMachine);

/**
 * The session chart with its real effects: the auth-status, user/me, logout (this session or
 * everywhere) and dev sign-in calls. The auth-status check goes out when the page is idle (whenIdle,
 * at most 1 s later): on a spectator page, after the game's first drawing.
 */
const liveSessionMachine = sessionMachine.provide({
  actors: {
    checkAuthStatus: fromPromise(() => new Promise<void>((resolve) => whenIdle(resolve)).then(fetchAuthStatus)),
    loadUser: fromPromise(() => fetchUser()),
    logout: fromPromise(({ input }) => postLogout(input)),
    devLogin: fromPromise(({ input }) => devLogin(input.username)),
  },
});

/**
 * Provides the session actor to the tree. `logic` lets tests give the chart fake effects.
 */
export function SessionProvider({ children, logic = liveSessionMachine }: { children: ReactNode; logic?: typeof sessionMachine }) {
  return <SessionContext.Provider logic={logic}>{children}</SessionContext.Provider>;
}
