import { describe, expect, it } from 'vitest';
import { readConfig } from '../config';

// The crash test (test/webhooks-out/crash.test.ts) runs servers with a 2-second lease; these are the setting's bounds.
describe('SVC_WEBHOOK_LEASE_MS', () => {
  it('is the default 30 s when unset, and a whole number of at least 1000 ms otherwise', () => {
    expect(readConfig({}).webhookLeaseMs).toBeUndefined();
    expect(readConfig({ SVC_WEBHOOK_LEASE_MS: '2000' }).webhookLeaseMs).toBe(2_000);
    expect(() => readConfig({ SVC_WEBHOOK_LEASE_MS: '999' })).toThrow('SVC_WEBHOOK_LEASE_MS must be at least 1000 (ms), got "999"');
    expect(() => readConfig({ SVC_WEBHOOK_LEASE_MS: '2s' })).toThrow(/SVC_WEBHOOK_LEASE_MS must be a positive integer/);
  });
});
