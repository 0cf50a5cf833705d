/**
 * Texts of 'Check now' on a team's Wise Old Man total (docs/client.md §9): the button while it
 * may ask, while it asks and while the 5-minute wait runs (minutes and seconds left, so the number
 * changes every second a person reads it), the note after an accepted ask, and the last check.
 */
export const PROGRESS_CHECK_TEXTS = {
  check: 'Check now',
  asking: 'Checking…',
  /** 272 s → 'Check again in 4:32'. */
  waiting: (seconds: number) => `Check again in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`,
  asked: 'Wise Old Man is checking; the total updates when it answers.',
  lastChecked: 'Last checked',
} as const;
