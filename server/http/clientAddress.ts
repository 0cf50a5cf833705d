import { BlockList, isIP } from 'node:net';
import type { Config } from '../config';

/** What the client address depends on: TRUST_PROXY's hop count and the TRUSTED_PROXIES list. */
export type ProxyTrust = Pick<Config, 'trustProxy' | 'trustedProxies'>;

/**
 * The client address of a request or socket handshake (docs/server.md §8, §14). Without
 * TRUST_PROXY (`trustProxy` 0) it is the connection's own address (the peer). With
 * `trustProxy` = N it walks back through X-Forwarded-For at most N hops, and only from a trusted
 * address: the peer must be loopback or in TRUSTED_PROXIES for its last X-Forwarded-For entry
 * (the one that proxy appended) to count, that entry must be trusted in turn for the one before it,
 * and so on. A header sent by anyone else is ignored, so a caller that reaches a process directly
 * cannot choose its own address. Entries are trimmed; IPv4-mapped IPv6 addresses read as IPv4.
 * Never throws; 'unknown' when nothing is known. The sign-in limit, the socket cap and the
 * /metrics loopback check key on it.
 */
export function clientAddress(remote: string | undefined | null, forwardedFor: string | string[] | undefined, trust: ProxyTrust): string {
  let address = normalize(remote ?? '') || 'unknown';
  if (trust.trustProxy <= 0 || forwardedFor === undefined) return address;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  const hops = header.split(',').map((s) => normalize(s.trim())).filter((s) => s.length > 0);
  for (let step = 0; step < trust.trustProxy && hops.length > 0 && isTrusted(address, trust.trustedProxies); step += 1) {
    address = hops.pop() as string;
  }
  return address.slice(0, 100);
}

/** Loopback: 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form ('::ffff:127.0.0.1'). */
export function isLoopback(address: string | undefined | null): boolean {
  const a = normalize(address ?? '');
  return a === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a);
}

/** IPv4-mapped IPv6 addresses ('::ffff:1.2.3.4') read as their IPv4 form. */
function normalize(address: string): string {
  return address.toLowerCase().startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** A proxy whose X-Forwarded-For entry counts: loopback, or an address or range of TRUSTED_PROXIES. */
function isTrusted(address: string, trustedProxies: readonly string[]): boolean {
  if (isLoopback(address)) return true;
  if (trustedProxies.length === 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  return blockListOf(trustedProxies).check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** One node:net BlockList per TRUSTED_PROXIES list (the configuration's array, read once at start). */
const blockLists = new WeakMap<readonly string[], BlockList>();

/**
 * The BlockList matching `entries`: each an IP address or a CIDR range, as config.ts
 * trustedProxiesOf checked them (an entry that still fails to parse matches nothing).
 */
function blockListOf(entries: readonly string[]): BlockList {
  let list = blockLists.get(entries);
  if (list) return list;
  list = new BlockList();
  for (const entry of entries) {
    const [ip, prefix] = entry.split('/');
    const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    try {
      if (prefix === undefined) list.addAddress(ip, family);
      else list.addSubnet(ip, Number(prefix), family);
    } catch {
      // Not an address after all: it matches nothing.
    }
  }
  blockLists.set(entries, list);
  return list;
}
