/**
 * The user's avatar: the image, or the first letter of the chat-platform username as fallback
 * (product-spec section 2, avatar menu). `size` in px.
 */
export function Avatar({ url, username, size = 36 }: { url: string | null | undefined; username: string; size?: number }) {
  const letter = (username.trim()[0] ?? '?').toUpperCase();
  return url ? (
    <img className="avatar" src={url} alt={`${username}'s avatar`} width={size} height={size} />
  ) : (
    <span className="avatar avatar--letter" style={{ width: size, height: size, fontSize: size * 0.5 }} aria-label={`${username}'s avatar`}>
      {letter}
    </span>
  );
}
