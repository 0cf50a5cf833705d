import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

/**
 * deploy/clan-snakes.env.example (docs/server.md §14, README "Deploying") lists every environment
 * variable the server and its scripts read (found in server/ and scripts/ as `env.NAME`), so a
 * variable added to the code without a line there fails here; the defaults it shows for the
 * settings of server/config.ts are the defaults loadConfig really takes; and the deploy files keep
 * the processes on loopback behind nginx, reading X-Forwarded-For (docs/server.md §14).
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const EXAMPLE = path.join(ROOT, 'deploy/clan-snakes.env.example');
/** Set by npm itself for `npm run` scripts, never by an operator. */
const NOT_SETTINGS = new Set(['INIT_CWD']);

/** Every `.ts` file under `dir`. */
function sources(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f));
}

describe('the deploy environment file', () => {
  const text = fs.readFileSync(EXAMPLE, 'utf8');
  /** NAME → the value of its `NAME=value` or `#NAME=value` line. */
  const listed = new Map([...text.matchAll(/^#?([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [name, value]));

  it('lists every variable read in server/ and scripts/', () => {
    const read = new Set<string>();
    for (const file of [...sources(path.join(ROOT, 'server')), ...sources(path.join(ROOT, 'scripts'))]) {
      for (const [, name] of fs.readFileSync(file, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]*)\b/g)) if (!NOT_SETTINGS.has(name)) read.add(name);
    }
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });

  it('shows the defaults loadConfig takes for the values it leaves unset', () => {
    const defaults = loadConfig({});
    const shown = (name: string) => {
      expect(text, `${name} must be shown unset`).toMatch(new RegExp(`^#${name}=`, 'm'));
      return listed.get(name);
    };
    expect(Number(shown('PORT'))).toBe(defaults.port);
    expect(shown('SQLITE_FILE')).toBe(defaults.sqliteFile);
    expect(shown('UPLOAD_DIR')).toBe(defaults.uploadDir);
    expect(shown('CLIENT_DIR')).toBe(defaults.clientDir);
    expect(Number(shown('GAME_CACHE_CHECK_MS'))).toBe(defaults.gameCacheCheckMs);
    expect(Number(shown('GAME_CACHE_GAMES'))).toBe(defaults.gameCacheGames);
    expect(Number(shown('HEAP_GROWING_PERCENT'))).toBe(defaults.heapGrowingPercent);
    expect(Number(shown('AUTH_RATE_LIMIT'))).toBe(defaults.authRateLimit);
    expect(Number(shown('SOCKETS_PER_ADDRESS'))).toBe(defaults.socketsPerAddress);
    expect(Number(shown('ROLLS_PER_SOCKET'))).toBe(defaults.actionsPerSocket);
    expect(Number(shown('ROLLS_PER_USER'))).toBe(defaults.actionsPerUser);
    expect(Number(shown('JOINS_PER_ADDRESS'))).toBe(defaults.joinsPerAddress);
    expect(Number(shown('JOINS_PER_SOCKET'))).toBe(defaults.joinsPerSocket);
    expect(Number(shown('UPLOAD_WAIT_MS'))).toBe(defaults.uploadWaitMs);
    expect(Number(shown('DISCORD_POLL_MS'))).toBe(defaults.announcements.pollMs);
    expect(Number(shown('DISCORD_LEASE_MS'))).toBe(defaults.announcements.leaseMs);
    expect(Number(shown('DISCORD_ROLL_WINDOW_MS'))).toBe(defaults.announcements.rollWindowMs);
    expect(Number(shown('DISCORD_BACKOFF_MS'))).toBe(defaults.announcements.backoffMs);
    expect(shown('S3_REGION')).toBe('us-east-1');
    expect(shown('DISCORD_AUTHORIZE_URL')).toBe(defaults.discord.authorizeUrl);
    expect(shown('DISCORD_TOKEN_URL')).toBe(defaults.discord.tokenUrl);
    expect(shown('DISCORD_USER_URL')).toBe(defaults.discord.userUrl);
    expect(shown('TRUSTED_PROXIES')).toBe('');
    expect(defaults.trustedProxies).toEqual([]);
    // HOST is set by the recipe; its comment names the default.
    expect(text).toMatch(new RegExp(`^# HOST \\(default ${defaults.host.replace(/\./g, '\\.')}[,)]`, 'm'));
  });

  it('sets what the recipe needs: production, PostgreSQL, Redis and the proxy (X-Forwarded-For read, loopback only)', () => {
    expect(text).toMatch(/^NODE_ENV=production$/m);
    expect(text).toMatch(/^DATABASE_URL=postgres:\/\//m);
    expect(text).toMatch(/^REDIS_URL=redis:\/\//m);
    expect(text).toMatch(/^TRUST_PROXY=1$/m);
    expect(text).toMatch(/^HOST=127\.0\.0\.1$/m);
    const recipe = loadConfig(Object.fromEntries([...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map(([, name, value]) => [name, value])));
    expect([recipe.host, recipe.trustProxy, recipe.trustedProxies]).toEqual(['127.0.0.1', 1, []]);
  });

  it('the systemd unit and the nginx site agree: processes on loopback reading X-Forwarded-For, /metrics refused to all but loopback', () => {
    const unit = fs.readFileSync(path.join(ROOT, 'deploy/systemd/clan-snakes@.service'), 'utf8');
    expect(unit).toMatch(/^Environment=HOST=127\.0\.0\.1$/m);
    expect(unit).toMatch(/^Environment=TRUST_PROXY=1$/m);
    const site = fs.readFileSync(path.join(ROOT, 'deploy/nginx/clan-snakes.conf'), 'utf8');
    for (const m of site.matchAll(/^\s*server (\S+)/gm)) if (m[1].includes(':')) expect(m[1]).toMatch(/^127\.0\.0\.1:\d+$/);
    // Checked for real against nginx in tests/server/proxies.api.test.ts; here the lines it rests on.
    expect(site).toMatch(/location = \/metrics \{[^}]*if \(\$clan_snakes_metrics_refused\) \{\s*return 404 /);
  });
});
