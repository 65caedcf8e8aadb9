import { catalogue } from '@svc/types';
import { describe, expect, it } from 'vitest';
import { commissionFailed, retryDelay, type RetryInput } from './policy';

const input = (overrides: Partial<RetryInput>): RetryInput => ({
  mode: 'safe',
  status: 500,
  detailsCode: undefined,
  retryAfter: undefined,
  retries: 0,
  maxRetries: 2,
  remainingMs: 60_000,
  backoffMs: 100,
  random: 0.5,
  ...overrides,
});

describe('retryDelay', () => {
  it('names the catalogue code it refuses to retry', () => {
    expect(commissionFailed).toBe(catalogue.commissionFailed.clientCode);
  });

  it('retries 5xx and network failures on safe routes with exponential backoff and jitter', () => {
    expect(retryDelay(input({ retries: 0, random: 0 }))).toBe(50);
    expect(retryDelay(input({ retries: 0, random: 0.999_999 }))).toBeCloseTo(100, 2);
    expect(retryDelay(input({ retries: 1, random: 0 }))).toBe(100);
    expect(retryDelay(input({ status: undefined, retries: 1, random: 1 }))).toBe(200);
    expect(retryDelay(input({ status: 503 }))).toBe(75);
  });

  it('caps the backoff step at 10 s', () => {
    expect(retryDelay(input({ backoffMs: 8_000, retries: 2, maxRetries: 5, random: 1 }))).toBe(10_000);
  });

  it('never retries after Failed to create commission', () => {
    expect(retryDelay(input({ detailsCode: 'commission_failed' }))).toBeUndefined();
    // The message alone decides nothing: a 500 with that text but no code is retried like any other.
    expect(retryDelay(input({ detailsCode: undefined }))).toBeDefined();
  });

  it('retries only 429 on once routes (click, test sale without transaction_id)', () => {
    expect(retryDelay(input({ mode: 'once', status: 500 }))).toBeUndefined();
    expect(retryDelay(input({ mode: 'once', status: undefined }))).toBeUndefined();
    expect(retryDelay(input({ mode: 'once', status: 429, retryAfter: 2 }))).toBe(2_000);
    expect(retryDelay(input({ mode: 'once', status: 429 }))).toBe(75);
  });

  it('never retries client errors', () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422]) expect(retryDelay(input({ status }))).toBeUndefined();
  });

  it('waits Retry-After, even on a 500 that sends one (readiness)', () => {
    expect(retryDelay(input({ status: 429, retryAfter: 3 }))).toBe(3_000);
    expect(retryDelay(input({ status: 500, retryAfter: 10 }))).toBe(10_000);
  });

  it('stops when Retry-After is over 60 s or past the deadline', () => {
    expect(retryDelay(input({ status: 429, retryAfter: 61 }))).toBeUndefined();
    expect(retryDelay(input({ status: 429, retryAfter: 5, remainingMs: 5_000 }))).toBeUndefined();
    expect(retryDelay(input({ status: 429, retryAfter: 5, remainingMs: 5_001 }))).toBe(5_000);
    expect(retryDelay(input({ remainingMs: 50, random: 0 }))).toBeUndefined();
  });

  it('stops after maxRetries', () => {
    expect(retryDelay(input({ retries: 2, maxRetries: 2 }))).toBeUndefined();
    expect(retryDelay(input({ retries: 0, maxRetries: 0 }))).toBeUndefined();
  });
});
