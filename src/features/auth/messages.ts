/** Login page status texts (product-spec section 4 Session). */
export const WELCOME_TEXT = 'Welcome! Click the button to authorize with the chat platform.';
export const EXPIRED_TEXT = 'Your session has expired. Please log in.';

/** Auth callback failure text (product-spec section 2 Auth callback, section 8 Auth). */
export const authFailedText = (error: string) => `Authentication Failed: ${error}. Redirecting to login.`;
