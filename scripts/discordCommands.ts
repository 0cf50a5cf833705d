/**
 * Registers the `/snl` slash command with Discord (docs/server.md §19 "Slash commands", README
 * "Discord slash commands").
 *
 * Run: `npm run discord:commands`. It reads the server's configuration (server/config.ts):
 * DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (both needed), DISCORD_API_URL (default
 * https://discord.com/api/v10; tests point it at a stand-in), and sends
 * `PUT {DISCORD_API_URL}/applications/{DISCORD_APPLICATION_ID}/commands` with
 * `Authorization: Bot {DISCORD_BOT_TOKEN}` and the command list: `/snl` with the subcommands
 * `link`, `status` and `roll` (an optional integer option `game`). The PUT replaces the
 * application's global commands with this list, so running it again is harmless. Prints Discord's
 * answer (status and JSON) and exits 0 on a 2xx, else 1 (also, with one line saying why, when a
 * setting is missing or Discord cannot be reached).
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type RESTPutAPIApplicationCommandsJSONBody,
} from 'discord-api-types/v10';
import { loadConfig } from '../server/config';

/** The command list: `/snl link`, `/snl status`, `/snl roll [game]`. */
const SNL_COMMANDS: RESTPutAPIApplicationCommandsJSONBody = [
  {
    type: ApplicationCommandType.ChatInput,
    name: 'snl',
    description: 'Clan Snakes & Ladders: link this server, see live games, roll for your team.',
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: 'link', description: 'Link this Discord server to one of your clans (Owner or Admin).' },
      { type: ApplicationCommandOptionType.Subcommand, name: 'status', description: "The linked clan's live games: each team's square and task." },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: 'roll',
        description: "Roll the dice for the team you lead (as the game page's Roll).",
        options: [
          { type: ApplicationCommandOptionType.Integer, name: 'game', description: 'The game id, when you lead teams in several live games.', required: false, min_value: 1 },
        ],
      },
    ],
  },
];

async function main(): Promise<number> {
  const { discordApp } = loadConfig();
  if (!discordApp.applicationId || !discordApp.botToken) {
    console.error('discord:commands: set DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN (the Discord application\'s id and bot token).');
    return 1;
  }
  const url = `${discordApp.apiUrl}/applications/${encodeURIComponent(discordApp.applicationId)}/commands`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'PUT',
      headers: { authorization: `Bot ${discordApp.botToken}`, 'content-type': 'application/json', 'user-agent': 'ClanSnakesAndLadders (commands, 1.0)' },
      body: JSON.stringify(SNL_COMMANDS),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (err) {
    console.error(`discord:commands: ${url} could not be reached: ${(err as Error).message}`);
    return 1;
  }
  const text = await res.text();
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: printed as it came.
  }
  console.log(`Discord answered ${res.status}`);
  console.log(shown);
  return res.ok ? 0 : 1;
}

void main().then((code) => {
  process.exitCode = code;
});
