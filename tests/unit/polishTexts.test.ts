import { describe, expect, it } from 'vitest';
import { GAME_STATUSES, statusClass, statusLabel } from '../../contract/game/status';
import { TEAM_COLOR_PRESETS } from '../../contract/team';
import { DEV_EXPIRED_TEXT, DEV_WELCOME_TEXT, EXPIRED_TEXT, WELCOME_TEXT, loginStatusText } from '../../src/features/auth/messages';
import { firstFreeTeamColor, newTeamDraft } from '../../src/features/teams/teamForm';

describe('status labels (one style of label for every wire status)', () => {
  it('labels each server status in sentence case, whatever its spelling on the wire', () => {
    expect(GAME_STATUSES).toEqual(['PENDING', 'READY', 'in-progress', 'paused', 'finished', 'completed']);
    expect(GAME_STATUSES.map(statusLabel)).toEqual(['Pending', 'Ready', 'In progress', 'Paused', 'Finished', 'Completed']);
  });
  it('keeps the wire value as the style class and shows an unknown status as sent', () => {
    expect(GAME_STATUSES.map(statusClass)).toEqual(['pending', 'ready', 'in-progress', 'paused', 'finished', 'completed']);
    expect(statusLabel('archived')).toBe('archived');
  });
});

describe('login status text', () => {
  it("keeps the spec's texts when Discord sign-in is configured (with or without dev sign-in)", () => {
    for (const dev of [true, false]) {
      expect(loginStatusText(false, true, dev)).toBe('Welcome! Click the button to authorize with the chat platform.');
      expect(loginStatusText(true, true, dev)).toBe('Your session has expired. Please log in.');
    }
    expect([WELCOME_TEXT, EXPIRED_TEXT]).toEqual([loginStatusText(false, false, false), loginStatusText(true, false, false)]);
  });
  it('points to development sign-in when it is the only way in', () => {
    expect(loginStatusText(false, false, true)).toBe(DEV_WELCOME_TEXT);
    expect(loginStatusText(true, false, true)).toBe(DEV_EXPIRED_TEXT);
    for (const text of [DEV_WELCOME_TEXT, DEV_EXPIRED_TEXT]) expect(text).toMatch(/development sign-in/);
  });
});

describe('new team colour', () => {
  it('offers distinct named presets, none of them black', () => {
    expect(new Set(TEAM_COLOR_PRESETS.map((p) => p.hex)).size).toBe(TEAM_COLOR_PRESETS.length);
    expect(new Set(TEAM_COLOR_PRESETS.map((p) => p.name)).size).toBe(TEAM_COLOR_PRESETS.length);
    for (const p of TEAM_COLOR_PRESETS) expect(p.hex).toMatch(/^#[0-9a-f]{6}$/);
    expect(TEAM_COLOR_PRESETS.map((p) => p.hex)).not.toContain('#000000');
  });
  it('starts on the first preset no team of the event has, in any hex spelling', () => {
    const [red, blue, green] = TEAM_COLOR_PRESETS;
    expect(newTeamDraft()).toEqual({ name: '', color: red.hex });
    expect(firstFreeTeamColor(['#2a5db0'])).toBe(red.hex);
    expect(firstFreeTeamColor([red.hex.toUpperCase()])).toBe(blue.hex);
    expect(firstFreeTeamColor([blue.hex, red.hex, 'not a colour'])).toBe(green.hex);
  });
  it('goes back to the first preset once every preset is taken', () => {
    expect(firstFreeTeamColor(TEAM_COLOR_PRESETS.map((p) => p.hex))).toBe(TEAM_COLOR_PRESETS[0].hex);
  });
});
