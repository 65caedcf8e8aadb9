import { describe, expect, it } from 'vitest';
import { parseOccurredAt } from './sale';

const now = Date.parse('2026-03-15T12:00:00Z');
const ok = (value: string) => parseOccurredAt(value, now);
const refused = (value: unknown) =>
  expect(() => parseOccurredAt(value, now)).toThrow('occurred_at must be an ISO 8601 time within the last 30 days');

describe('parseOccurredAt', () => {
  it('accepts ISO 8601 with a UTC offset inside the bounds', () => {
    expect(ok('2026-03-15T11:00:00Z')).toBe(Date.parse('2026-03-15T11:00:00Z'));
    expect(ok('2026-03-15T13:00:00+02:00')).toBe(Date.parse('2026-03-15T11:00:00Z'));
    expect(ok('2026-02-14T12:00:00.123Z')).toBe(Date.parse('2026-02-14T12:00:00.123Z'));
    expect(ok('2026-03-15T12:04:59Z')).toBe(now + 299_000);
  });

  it('refuses no offset, unreal dates, out-of-bounds times and non-strings', () => {
    refused('2026-03-15T11:00:00');
    refused('2026-02-29T11:00:00Z');
    refused('2026-03-15T24:00:00Z');
    refused('2026-03-15');
    refused('2026-02-13T11:59:59Z');
    refused('2026-03-15T12:05:01Z');
    refused(1_773_000_000_000);
  });
});
