import { describe, expect, it } from 'vitest';
import { clanManagePath, parseClanView, type ClanView } from '../../src/base/paths';

describe('clan management URLs (src/base/paths.ts)', () => {
  const views: [ClanView, string][] = [
    [{ tab: 'members' }, '/clans/manage/3/members'],
    [{ tab: 'events', events: { view: 'list' } }, '/clans/manage/3/events'],
    [{ tab: 'events', events: { view: 'teams', eventId: 5 } }, '/clans/manage/3/events/5/teams'],
    [{ tab: 'events', events: { view: 'game', eventId: 5 } }, '/clans/manage/3/events/5/game'],
    [{ tab: 'events', events: { view: 'gameTasks', eventId: 5 } }, '/clans/manage/3/events/5/tasks'],
    [{ tab: 'tasks' }, '/clans/manage/3/tasks'],
    [{ tab: 'reviews' }, '/clans/manage/3/reviews'],
  ];

  it('each view has one path, and the path reads back as that view', () => {
    for (const [view, path] of views) {
      expect(clanManagePath(3, view)).toBe(path);
      expect(parseClanView(path.replace('/clans/manage/3/', ''))).toEqual(view);
    }
  });

  it('nothing after the clan id is the Members tab; unknown paths and bad ids are null', () => {
    expect(parseClanView(undefined)).toEqual({ tab: 'members' });
    expect(parseClanView('')).toEqual({ tab: 'members' });
    expect(parseClanView('events/')).toEqual({ tab: 'events', events: { view: 'list' } });
    for (const bad of ['nope', 'members/1', 'events/5', 'events/5/board', 'events/0/game', 'events/-1/game', 'events/1e3/game', 'events/2147483648/game', 'events/5/game/x', 'tasks/2']) {
      expect({ bad, view: parseClanView(bad) }).toEqual({ bad, view: null });
    }
  });
});
