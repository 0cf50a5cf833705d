import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { log } from '../observability/log';

/** Commands a guild may send in any one-second window (docs/server.md §19). */
const GUILD_COMMANDS_PER_SECOND = 5;
const WINDOW_MS = 1000;

/**
 * A sliding log in a sorted set, atomic in Redis: drops the entries older than the window, refuses
 * (0) when `limit` remain, else adds this command (1). KEYS[1] the guild's key; ARGV now (ms),
 * window (ms), limit, a unique member.
 */
const SLIDING_LOG = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * The per-guild limit of slash commands (docs/server.md §19): at most GUILD_COMMANDS_PER_SECOND in
 * any one-second window (a sliding window, not fixed seconds, so a burst across a second's edge is
 * refused too). Counted in Redis when REDIS_URL is set, so every process shares one budget per
 * guild (as the socket and sign-in limits share theirs); in this process's memory otherwise, and
 * while Redis fails (a lost Redis never silences the commands).
 */
export class GuildCommandLimit {
  private readonly memory = new Map<string, number[]>();
  private lastLogged = 0;

  constructor(private readonly redis: Redis | null, private readonly keyPrefix: string) {}

  /** Counts one command of `guildId` now; false when it is past the limit (then it is not counted). */
  async take(guildId: string, now = Date.now()): Promise<boolean> {
    if (this.redis) {
      try {
        const granted = await this.redis.eval(SLIDING_LOG, 1, `${this.keyPrefix}:discord-guild:${guildId}`, now, WINDOW_MS, GUILD_COMMANDS_PER_SECOND, `${now}:${crypto.randomUUID()}`);
        return Number(granted) === 1;
      } catch (err) {
        if (now - this.lastLogged >= 1000) {
          this.lastLogged = now;
          log.warn({ err: err instanceof Error ? err.message : String(err) }, '[discord] command limit store failed; counting in memory');
        }
      }
    }
    return this.takeInMemory(guildId, now);
  }

  private takeInMemory(guildId: string, now: number): boolean {
    const recent = (this.memory.get(guildId) ?? []).filter((t) => t > now - WINDOW_MS);
    if (recent.length >= GUILD_COMMANDS_PER_SECOND) {
      this.memory.set(guildId, recent);
      return false;
    }
    recent.push(now);
    this.memory.set(guildId, recent);
    // Guilds quiet for a window are forgotten, so the map never grows without bound.
    if (this.memory.size > 10_000) for (const [k, times] of this.memory) if (times.every((t) => t <= now - WINDOW_MS)) this.memory.delete(k);
    return true;
  }
}
