import { describe, expect, it } from 'vitest';
import { boundedMemo } from '../../server/games/boundedMemo';

/** server/games/boundedMemo.ts: a value made once per key, at most `limit` kept, the oldest made going first. */
describe('boundedMemo', () => {
  it('makes a value once per key and keeps at most the limit, dropping the oldest made', () => {
    const made: string[] = [];
    const lengthOf = boundedMemo(2, (key) => {
      made.push(key);
      return { length: key.length };
    });
    const first = lengthOf('a');
    expect(lengthOf('a')).toBe(first);
    lengthOf('bb');
    lengthOf('ccc');
    lengthOf('bb');
    lengthOf('a');
    expect(made).toEqual(['a', 'bb', 'ccc', 'a']);
  });

  it('throws what making throws and keeps nothing for that key', () => {
    let calls = 0;
    const parsed = boundedMemo(10, (text): unknown => {
      calls += 1;
      return JSON.parse(text);
    });
    expect(() => parsed('{')).toThrow(SyntaxError);
    expect(() => parsed('{')).toThrow(SyntaxError);
    expect(calls).toBe(2);
  });
});
