import type { DinkType } from './dink';

// ---------------------------------------------------------------------------------------------
// One-link Dink set-up (docs/server.md §13 "One-link set-up"): which of Dink's own config keys
// turn each notifier on with screenshots. The names are Dink's (its "Dynamic Config URL" import
// merges them into the player's settings), so they are written here once and shared by the
// server's answer and the Dink panel's "what it turns on" list.
// ---------------------------------------------------------------------------------------------

/** Dink's config keys for one notifier: its switch, its screenshot switch, and any fixed extras. */
export interface DinkNotifierKeys {
  /** The notifier's on switch, e.g. `lootEnabled`. */
  enabled: string;
  /** Its "send image" switch, e.g. `lootSendImage`. */
  image: string;
}

/** Each Dink type's notifier keys, in Dink's own names. */
const DINK_NOTIFIERS: Record<DinkType, DinkNotifierKeys> = {
  LOOT: { enabled: 'lootEnabled', image: 'lootSendImage' },
  KILL_COUNT: { enabled: 'killCountEnabled', image: 'killCountSendImage' },
  COLLECTION: { enabled: 'collectionLogEnabled', image: 'collectionSendImage' },
  PET: { enabled: 'petEnabled', image: 'petSendImage' },
  LEVEL: { enabled: 'levelEnabled', image: 'levelSendImage' },
  QUEST: { enabled: 'questEnabled', image: 'questSendImage' },
  CLUE: { enabled: 'clueEnabled', image: 'clueSendImage' },
  SLAYER: { enabled: 'slayerEnabled', image: 'slayerSendImage' },
  COMBAT_ACHIEVEMENT: { enabled: 'combatTaskEnabled', image: 'combatTaskSendImage' },
  ACHIEVEMENT_DIARY: { enabled: 'diaryEnabled', image: 'diarySendImage' },
};

/** The rules' part that the set-up reads: a Dink type and its names. */
export interface DinkConfigRule {
  type: string;
  names: readonly string[];
}

/** Dink's "Dynamic Config URL" object: string, boolean and number values under Dink's key names. */
export type DinkConfig = Record<string, string | boolean | number>;

/**
 * The one-link set-up for an event's Dink URL `webhook` and the rules on its board: `discordWebhook`,
 * then for each Dink type any rule uses its notifier on with screenshots; LOOT adds
 * `lootItemAllowlist` (every LOOT name, one a line, in first-seen order) so cheap items fire, and
 * KILL_COUNT `killCountInterval` 1 so every kill posts. Rules of other types (Wise Old Man's) add
 * nothing. No other key, so the player's own settings stay as they were.
 */
export function dinkConfig(webhook: string, rules: readonly DinkConfigRule[]): DinkConfig {
  const config: DinkConfig = { discordWebhook: webhook };
  const lootNames: string[] = [];
  for (const rule of rules) {
    const keys = (DINK_NOTIFIERS as Record<string, DinkNotifierKeys | undefined>)[rule.type];
    if (!keys) continue;
    config[keys.enabled] = true;
    config[keys.image] = true;
    if (rule.type === 'LOOT') for (const name of rule.names) if (!lootNames.includes(name)) lootNames.push(name);
    if (rule.type === 'KILL_COUNT') config.killCountInterval = 1;
  }
  if (config.lootEnabled) config.lootItemAllowlist = lootNames.join('\n');
  return config;
}

/** The one-link set-up's URL of the event's Dink webhook `webhook` (`GET /api/dink/{token}/config`). */
export function dinkConfigUrl(webhook: string): string {
  return `${webhook}/config`;
}
