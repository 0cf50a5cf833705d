import { describe, expect, it } from 'vitest';
import { linkEach, linkLines, validateClanCreate, validateIgnEdit, validateIgnLink } from '../../src/features/profile/profileActions';

describe('profile form rules (docs/game-rules.md §13)', () => {
  it('link: the field must not be empty, and some name must remain after splitting', () => {
    expect(validateIgnLink({ text: '' })).toBe('IGN field cannot be empty. Please enter a name.');
    expect(validateIgnLink({ text: '   ' })).toBe('IGN field cannot be empty. Please enter a name.');
    expect(validateIgnLink({ text: ' , ,, ' })).toBe('No valid IGNs found. Please enter names separated by commas.');
    expect(validateIgnLink({ text: 'Zezima, ' })).toBeNull();
  });

  it('edit: a new value is required and must differ from the current one', () => {
    expect(validateIgnEdit({ ign: ' ', current: 'Zezima' })).toBe('New IGN field cannot be empty. Please enter a name.');
    expect(validateIgnEdit({ ign: ' Zezima ', current: 'Zezima' })).toBe('The new IGN is the same as the current one. No change was made.');
    expect(validateIgnEdit({ ign: 'zezima', current: 'Zezima' })).toBeNull();
  });

  it('create clan: a name is required', () => {
    expect(validateClanCreate({ name: '  ' })).toBe('Clan name cannot be empty. Please enter a name.');
    expect(validateClanCreate({ name: 'Iron' })).toBeNull();
  });
});

describe('linking several IGNs (docs/game-rules.md §13)', () => {
  it('posts each trimmed IGN separately, in order, and lists every success and failure', async () => {
    const posted: string[] = [];
    const result = await linkEach(' Zezima ,, Lynx Titan,Bob ', async (ign) => {
      posted.push(ign);
      if (ign === 'Lynx Titan') throw new Error('You already linked Lynx Titan.');
    });
    expect(posted).toEqual(['Zezima', 'Lynx Titan', 'Bob']);
    expect(result.message.split('\n')).toEqual([linkLines.linked('Zezima'), linkLines.failed('Lynx Titan', 'You already linked Lynx Titan.'), linkLines.linked('Bob')]);
  });

  it('fails with the list when no IGN was linked', async () => {
    await expect(
      linkEach('A, B', async () => {
        throw new Error('Nope.');
      }),
    ).rejects.toThrow([linkLines.failed('A', 'Nope.'), linkLines.failed('B', 'Nope.')].join('\n'));
  });
});
