import { fireEvent, render } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type InitialEntry, type RouteObject } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { AuthStatus } from '../../contract/user';
import { sessionMachine, type LogoutInput } from '../../machines/session.machine';
import { SessionProvider } from '../../src/base/session';
import type { User } from '../../contract/user';
import { FakeEffects } from './effects';

/** A signed-in user fixture; `over` replaces fields. */
export function fakeUser(over: Partial<User> = {}): User {
  return {
    id: 1,
    username: 'alice',
    discord_username: 'alice',
    discord_id: 'dev-0001',
    avatar_url: null,
    igns: [{ id: 1, ign: 'Zezima' }],
    clan_memberships_list: [],
    can_create_clan: true,
    ...over,
  };
}

/** The session chart whose effects are the given fakes (names: checkAuthStatus, loadUser, logout with its LogoutInput, devLogin). */
export function fakeSessionLogic(fx: FakeEffects) {
  return sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise(() => fx.fn('checkAuthStatus')()),
      loadUser: fromPromise(() => fx.fn('loadUser')()),
      logout: fromPromise(({ input }) => fx.fn('logout')(input)),
      devLogin: fromPromise(({ input }) => fx.fn('devLogin')(input)),
    },
  });
}

/** A session chart that is signed in as `user` at once (for pages under test). */
export function signedInSessionLogic(user: User = fakeUser()) {
  return sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({ authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: true, discord_login: false })),
      loadUser: fromPromise<User, void>(async () => user),
      logout: fromPromise<void, LogoutInput>(async () => undefined),
      devLogin: fromPromise<void, { username: string }>(async () => undefined),
    },
  });
}

/** A session signed in as `user` that counts the user loads (the first, then one per session.reload). */
export function countingSession(user: User) {
  let loads = 0;
  const logic = sessionMachine.provide({
    actors: {
      checkAuthStatus: fromPromise<AuthStatus, void>(async () => ({ authorized: true, has_token: true, session_keys: ['user_id'], error: null, dev_login: false, discord_login: true })),
      loadUser: fromPromise<User, void>(async () => {
        loads += 1;
        return user;
      }),
      logout: fromPromise<void, LogoutInput>(async () => undefined),
    },
  });
  return { logic, loads: () => loads };
}

/** Renders `routes` in a memory router at `path` (a path, or a location with its navigation state) inside a SessionProvider running `logic`. */
export function renderRoutes(routes: RouteObject[], path: InitialEntry, logic: typeof sessionMachine) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const utils = render(
    <SessionProvider logic={logic}>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
  return { router, ...utils };
}

/**
 * Chooses `file` in a file input as a person does (user-event's upload), or, with null, empties
 * the choice: a change with no files, as the browser's Cancel after a choice sends, which
 * user-event cannot make.
 */
export async function chooseFile(user: ReturnType<typeof userEvent.setup>, input: HTMLInputElement, file: File | null): Promise<void> {
  if (file) await user.upload(input, file);
  else fireEvent.change(input, { target: { files: [] } });
}
