import { describe, expect, it } from 'vitest';
import { clientAddress, isLoopback } from '../../server/http/clientAddress';
import { loadConfig } from '../../server/config';

/**
 * The client address of docs/server.md §8 and §14 (server/http/clientAddress.ts): X-Forwarded-For
 * counts only with TRUST_PROXY and only from a trusted peer (loopback or TRUSTED_PROXIES), hop by
 * hop; and the HOST and TRUSTED_PROXIES settings it rests on (server/config.ts).
 */

/** TRUST_PROXY = `hops` with TRUSTED_PROXIES = `trusted`. */
const trust = (hops: number, ...trusted: string[]) => ({ trustProxy: hops, trustedProxies: trusted });

describe('clientAddress', () => {
  it('is the connection address without TRUST_PROXY, whatever X-Forwarded-For says', () => {
    expect(clientAddress('127.0.0.1', '1.2.3.4', trust(0))).toBe('127.0.0.1');
    expect(clientAddress('10.0.0.5', '1.2.3.4', trust(0, '10.0.0.5'))).toBe('10.0.0.5');
    expect(clientAddress('::ffff:10.0.0.5', undefined, trust(0))).toBe('10.0.0.5');
    expect(clientAddress(undefined, undefined, trust(1))).toBe('unknown');
  });

  it('reads X-Forwarded-For from a loopback peer: the last entry, the one the proxy on this machine appended', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.9', trust(1))).toBe('203.0.113.9');
    expect(clientAddress('::1', 'spoofed, 203.0.113.9', trust(1))).toBe('203.0.113.9');
    expect(clientAddress('::ffff:127.0.0.1', '127.0.0.1, 203.0.113.9', trust(1))).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', ['198.51.100.1', '203.0.113.9'], trust(1))).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For from a peer that is neither loopback nor listed: a direct caller cannot choose its address', () => {
    expect(clientAddress('192.0.2.7', '127.0.0.1', trust(1))).toBe('192.0.2.7');
    expect(clientAddress('192.0.2.7', '203.0.113.9', trust(1, '10.0.0.0/8', '192.0.2.8'))).toBe('192.0.2.7');
    expect(clientAddress('::ffff:192.0.2.7', '127.0.0.1', trust(3))).toBe('192.0.2.7');
  });

  it('reads it from a peer listed in TRUSTED_PROXIES, by address or CIDR range, IPv4 or IPv6', () => {
    expect(clientAddress('192.0.2.8', '203.0.113.9', trust(1, '192.0.2.8'))).toBe('203.0.113.9');
    expect(clientAddress('10.1.2.3', '203.0.113.9', trust(1, '10.0.0.0/8'))).toBe('203.0.113.9');
    expect(clientAddress('::ffff:10.1.2.3', '203.0.113.9', trust(1, '10.0.0.0/8'))).toBe('203.0.113.9');
    expect(clientAddress('fd00::2', '2001:db8::1', trust(1, 'fd00::/64'))).toBe('2001:db8::1');
    expect(clientAddress('fd00:1::2', '2001:db8::1', trust(1, 'fd00::/64'))).toBe('fd00:1::2');
  });

  it('walks back at most TRUST_PROXY hops, each through a trusted address', () => {
    // Two proxies: a TLS proxy on 10.0.0.2 in front of nginx on loopback.
    expect(clientAddress('127.0.0.1', 'spoofed, 203.0.113.9, 10.0.0.2', trust(2, '10.0.0.2'))).toBe('203.0.113.9');
    // The outer hop is not trusted: its entry is the client; what it received is not read.
    expect(clientAddress('127.0.0.1', 'spoofed, 203.0.113.9', trust(2))).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', '198.51.100.1, 127.0.0.1', trust(2))).toBe('198.51.100.1');
    // Never more hops than TRUST_PROXY, even through trusted addresses.
    expect(clientAddress('127.0.0.1', '198.51.100.1, 127.0.0.1', trust(1))).toBe('127.0.0.1');
  });

  it('falls back to the leftmost known address when the header is short, empty or blank', () => {
    expect(clientAddress('127.0.0.1', '203.0.113.9', trust(5))).toBe('203.0.113.9');
    expect(clientAddress('127.0.0.1', ' , ', trust(1))).toBe('127.0.0.1');
    expect(clientAddress('127.0.0.1', '', trust(1))).toBe('127.0.0.1');
  });
});

describe('isLoopback', () => {
  it('is 127.0.0.0/8 and ::1, also IPv4-mapped; nothing else', () => {
    for (const a of ['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['192.0.2.2', '::ffff:192.0.2.2', 'fd00::2', '0.0.0.0', '::', 'localhost', '', undefined, null]) expect(isLoopback(a), String(a)).toBe(false);
  });
});

describe('HOST and TRUSTED_PROXIES settings', () => {
  it('HOST defaults to 0.0.0.0 and is read as given', () => {
    expect(loadConfig({}).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1' }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '::1' }).host).toBe('::1');
  });

  it('TRUSTED_PROXIES is empty by default and takes addresses and CIDR ranges separated by commas or spaces', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: ' 10.0.0.5, 192.168.0.0/16  fd00::/64,::ffff:10.0.0.6 ' }).trustedProxies).toEqual(['10.0.0.5', '192.168.0.0/16', 'fd00::/64', '10.0.0.6']);
  });

  it('stops the start on an entry that is not an address or range, naming it', () => {
    for (const bad of ['proxy.example.org', '10.0.0.0/33', 'fd00::/129', '10.0.0.1/8/8', '10.0.0.0/', '10.0.0.0/x', '300.1.1.1']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: `127.0.0.1,${bad}` }), bad).toThrow(`TRUSTED_PROXIES: '${bad}' is not an IP address or CIDR range`);
    }
  });
});
