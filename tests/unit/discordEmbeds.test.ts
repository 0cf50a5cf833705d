import { describe, expect, it } from 'vitest';
import { nextMessage, singleMessage, type Announcement, type QueuedAnnouncement } from '../../server/discord/embeds';

/**
 * The messages of Discord announcements (docs/server.md §10): rolls of one window in one
 * message, one embed per team in its colour, at most 10 embeds (the rest in the next message),
 * within Discord's size limits; anything else alone; user text escaped in descriptions;
 * `allowed_mentions: {parse: []}` on every message.
 */

const T0 = Date.parse('2031-06-01T18:00:00.000Z');
let serial = 0;
const at = (ms: number, announcement: Announcement): QueuedAnnouncement => ({ id: ++serial, created_at: new Date(T0 + ms).toISOString(), announcement });
const rollOf = (team: string, color: string, die = 3): Announcement => ({ kind: 'roll', team: { name: team, color }, die, from: 1, landing: 1 + die, to: 1 + die, via: null });

describe('nextMessage', () => {
  it('groups draft picks per team like rolls, apart from rolls, with user text escaped (docs/server.md §16)', () => {
    const pick = (team: string, color: string, ign: string, n: number, auto = false): Announcement => ({ kind: 'pick', team: { name: team, color }, ign, pick: n, round: n > 2 ? 2 : 1, auto });
    const head = [at(0, pick('Red', '#aa0000', 'Zezima', 1)), at(100, pick('Blue', '#0000aa', 'Lynx_Titan', 2, true)), at(200, pick('Blue', '#0000aa', 'B0aty', 3)), at(300, rollOf('Red', '#aa0000'))];
    const { message, ids } = nextMessage(head, 10_000);
    expect(ids).toEqual(head.slice(0, 3).map((q) => q.id));
    expect(message.embeds).toEqual([
      { title: 'Red', description: 'Pick 1 (round 1): Zezima', color: 0xaa0000 },
      { title: 'Blue', description: 'Pick 2 (round 1): Lynx\\_Titan (picked by the clock)\nPick 3 (round 2): B0aty', color: 0x0000aa },
    ]);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('puts the rolls of one 10 s window in one message, one embed per team in its colour, in order of first roll', () => {
    const head = [at(0, rollOf('Red', '#aa0000')), at(1000, rollOf('Blue', '#0000aa', 5)), at(2000, rollOf('Red', '#aa0000', 6)), at(10_000, rollOf('Red', '#aa0000'))];
    const { message, ids } = nextMessage(head, 10_000);
    expect(ids).toEqual(head.slice(0, 3).map((q) => q.id));
    expect(message).toEqual({
      embeds: [
        { title: 'Red', description: '🎲 Rolled a 3: 1 → 4\n🎲 Rolled a 6: 1 → 7', color: 0xaa0000 },
        { title: 'Blue', description: '🎲 Rolled a 5: 1 → 6', color: 0x0000aa },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it('stops at 10 embeds: the 11th team waits for the next message', () => {
    const head = Array.from({ length: 12 }, (_, i) => at(i, rollOf(`Team ${i + 1}`, '#123456')));
    const first = nextMessage(head, 10_000);
    expect(first.message.embeds).toHaveLength(10);
    expect(first.ids).toEqual(head.slice(0, 10).map((q) => q.id));
    const second = nextMessage(head.slice(10), 10_000);
    expect(second.message.embeds.map((e) => e.title)).toEqual(['Team 11', 'Team 12']);
  });

  it('keeps a message within Discord\'s size limits however many rolls a window holds', () => {
    const head = Array.from({ length: 400 }, (_, i) => at(i, rollOf('Red', '#aa0000')));
    const { message, ids } = nextMessage(head, 10_000);
    expect(ids.length).toBeGreaterThan(50);
    expect(ids.length).toBeLessThan(400);
    const size = message.embeds.reduce((n, e) => n + e.title.length + (e.description ?? '').length, 0);
    expect(size).toBeLessThanOrEqual(6000);
    for (const e of message.embeds) expect((e.description ?? '').length).toBeLessThanOrEqual(4096);
  });

  it('sends anything but a roll alone, and a roll run stops at the next other announcement', () => {
    const status = at(0, { kind: 'status', title: 'Game paused', event_name: 'Spring *Race*' });
    expect(nextMessage([status, at(1, rollOf('Red', '#aa0000'))], 10_000)).toEqual({
      message: { embeds: [{ title: 'Game paused', description: 'Spring \\*Race\\*', color: 0x5865f2 }], allowed_mentions: { parse: [] } },
      ids: [status.id],
    });
    const run = [at(0, rollOf('Red', '#aa0000')), status, at(2, rollOf('Red', '#aa0000'))];
    expect(nextMessage(run, 10_000).ids).toEqual([run[0].id]);
  });

  it('writes snakes and ladders, reviews and results with the texts of the embeds', () => {
    const snake = nextMessage([at(0, { kind: 'roll', team: { name: 'Red', color: '#aa0000' }, die: 4, from: 10, landing: 14, to: 3, via: 'snake' })], 10_000);
    expect(snake.message.embeds[0].description).toBe('🎲 Rolled a 4: 10 → 14, snake down to 3');
    const ladder = nextMessage([at(0, { kind: 'roll', team: { name: 'Red', color: 'red' }, die: 2, from: 1, landing: 3, to: 40, via: 'ladder' })], 10_000);
    expect(ladder.message.embeds[0]).toEqual({ title: 'Red', description: '🎲 Rolled a 2: 1 → 3, ladder up to 40', color: 0x5865f2 });
    const denied = singleMessage({ kind: 'review', team: { name: '# Red', color: '#00ff00' }, square: 7, task: 'Kill _Zulrah_', decision: 'denied', reviewer: 'alice', reason: '@everyone <@1> nope' });
    expect(denied.embeds[0]).toEqual({ title: 'Proof denied', description: '\\# Red: square 7, Kill \\_Zulrah\\_\nDenied by alice: @everyone \\<@1\\> nope', color: 0x00ff00 });
    expect(denied.allowed_mentions).toEqual({ parse: [] });
    const result = singleMessage({ kind: 'result', event_name: 'Finale', winner: { name: 'Red', color: '#aa0000' }, standings: [{ name: 'Red', color: '#aa0000', position: 100 }, { name: 'Blue', color: '#0000aa', position: 57 }] });
    expect(result.embeds[0]).toEqual({ title: 'Winner: Red', description: 'Finale: final standings\n1. Red: square 100\n2. Blue: square 57', color: 0xaa0000 });
  });

  it('writes a relief substitute as text in the team colour (docs/server.md §15)', () => {
    const relief = singleMessage({ kind: 'relief', team: { name: 'Red_Team', color: '#aa0000' }, square: 12, hours: 7, task: 'Get a *Dragon* pickaxe <@1>' });
    expect(relief.embeds[0]).toEqual({ title: 'New task (relief)', description: 'Red\\_Team was stuck on square 12 for 7 h: new task Get a \\*Dragon\\* pickaxe \\<@1\\>', color: 0xaa0000 });
    expect(relief.allowed_mentions).toEqual({ parse: [] });
  });
});
