import { describe, expect, it } from 'vitest';
import { waitTime } from './wait-time';

// A local time, as the CLI prints local clock times.
const now = new Date(2026, 10, 25, 13, 36, 5);

describe('waitTime', () => {
  it.each([
    [0.2, '1 second'],
    [1, '1 second'],
    [42, '42 seconds'],
    [59.5, 'about 1 minute (until 13:37)'],
    [60, 'about 1 minute (until 13:37)'],
    [3342, 'about 56 minutes (until 14:31)'],
    [3600, 'about 60 minutes (until 14:36)'],
    [5400, 'about 2 hours (until 15:06)'],
    [86_400, 'about 24 hours (until 13:36)'],
  ])('%s s → %s', (seconds, words) => {
    expect(waitTime(seconds, now)).toBe(words);
  });
});
