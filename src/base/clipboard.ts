/**
 * Puts `text` on the clipboard (a link a manager hands on: a Dink link, an invite link); rejects
 * when the browser has no clipboard or refuses, so the caller can say to copy by hand.
 */
export async function copyText(text: string): Promise<void> {
  if (!navigator.clipboard) throw new Error('No clipboard.');
  await navigator.clipboard.writeText(text);
}
