/**
 * The client address of a request or socket handshake (docs/server.md §8):
 * with `trustProxy` = 0 the connection's own address; with `trustProxy` = N (TRUST_PROXY) the
 * address N hops back through X-Forwarded-For, counting the connection itself as the last hop
 * (so with one proxy, the last X-Forwarded-For entry, the one the proxy appended). Entries are
 * trimmed; a missing or short header falls back to the leftmost known address. Never throws;
 * 'unknown' when nothing is known. The connection cap and the sign-in rate limit key on it.
 */
export function clientAddress(remote: string | undefined | null, forwardedFor: string | string[] | undefined, trustProxy: number): string {
  const direct = normalize(remote ?? '') || 'unknown';
  if (trustProxy <= 0 || forwardedFor === undefined) return direct;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',').map((s) => normalize(s.trim())).filter((s) => s.length > 0);
  if (hops.length === 0) return direct;
  const chain = [...hops, direct];
  const index = Math.max(0, chain.length - 1 - trustProxy);
  return chain[index].slice(0, 100);
}

/** IPv4-mapped IPv6 addresses ('::ffff:1.2.3.4') read as their IPv4 form. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
