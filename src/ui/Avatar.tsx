/**
 * The user's avatar: the image, or the first letter of the chat-platform username as fallback
 * (docs/client.md §1, avatar menu). `size` in px. `decorative` when the name is shown or
 * announced beside it (the avatar menu's trigger): then it is hidden from assistive technology.
 */
export function Avatar({ url, username, size = 36, decorative = false }: { url: string | null | undefined; username: string; size?: number; decorative?: boolean }) {
  const letter = (username.trim()[0] ?? '?').toUpperCase();
  return url ? (
    <img className="avatar" src={url} alt={decorative ? '' : `${username}'s avatar`} width={size} height={size} />
  ) : (
    <span
      className="avatar avatar--letter"
      style={{ width: size, height: size, fontSize: size * 0.5 }}
      aria-label={decorative ? undefined : `${username}'s avatar`}
      aria-hidden={decorative || undefined}
    >
      {letter}
    </span>
  );
}
