/** Login page status texts (docs/client.md §2), for a server with Discord sign-in. */
export const WELCOME_TEXT = 'Welcome! Click the button to authorize with the chat platform.';
export const EXPIRED_TEXT = 'Your session has expired. Please log in.';

/**
 * The same two texts for a server without Discord sign-in but with development sign-in: they
 * point to the form below rather than to the disabled Discord button.
 */
export const DEV_WELCOME_TEXT = 'Welcome! Enter any username below to sign in (development sign-in).';
export const DEV_EXPIRED_TEXT = 'Your session has expired. Please sign in again below (development sign-in).';

/**
 * The login page's status text: the documented welcome or expired text (`expired`) when Discord
 * sign-in is configured, or when no sign-in at all is offered; the development sign-in's texts when
 * only it is on.
 */
export function loginStatusText(expired: boolean, discordLogin: boolean, devLogin: boolean): string {
  if (!discordLogin && devLogin) return expired ? DEV_EXPIRED_TEXT : DEV_WELCOME_TEXT;
  return expired ? EXPIRED_TEXT : WELCOME_TEXT;
}

/** Auth callback failure text (docs/client.md §2, §11). */
export const authFailedText = (error: string) => `Authentication Failed: ${error}. Redirecting to login.`;
