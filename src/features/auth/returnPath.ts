import { DEFAULT_RETURN_PATH, safeReturnPath } from '../../../contract/user';

/** Navigation state of the login page: the page asked for while signed out. */
export interface SignInState {
  from: string;
}

/**
 * The page a sign-in from the login page returns to: the navigation state's `from` when it is a
 * path on this site (contract `safeReturnPath`), else /dashboard.
 */
export function returnPathOf(state: unknown): string {
  const from = typeof state === 'object' && state !== null ? (state as Partial<SignInState>).from : undefined;
  return (typeof from === 'string' && safeReturnPath(from)) || DEFAULT_RETURN_PATH;
}
