import { describe, expect, it } from 'vitest';
import { errorText } from '../../contract/errorText';

describe('errorText', () => {
  it('shows the message an Error carries', () => {
    expect(errorText(new Error('Clan not found.'), 'Failed.')).toBe('Clan not found.');
  });

  it('falls back when the Error has no message or the thrown value is not an Error', () => {
    expect(errorText(new Error(''), 'Failed.')).toBe('Failed.');
    expect(errorText('Clan not found.', 'Failed.')).toBe('Failed.');
    expect(errorText(undefined, 'Failed.')).toBe('Failed.');
  });
});
