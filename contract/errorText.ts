/**
 * The text to show for a failed call: the error's own message (the server's words, carried by the
 * api layer's Error), else the caller's fallback. An empty message counts as none, so the user
 * never sees a blank notice.
 */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}
