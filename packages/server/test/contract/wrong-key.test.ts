import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcUnauthorizedError } from '../../src';
import { hints } from '../../src/errors/errors';

// A wrong key answers `unauthorized` (platform envelope) on sales and `invalid_key` (typed envelope) on readiness:
// the spec's envelopes differ, the SDK gives one code and one hint for both, against the real reference server.
let server: ReferenceServer;

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
});
afterAll(() => server.close());

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('resolved'),
    (error: unknown) => error,
  );

describe('a wrong program key', () => {
  it('is invalid_key with its hint on the sale, the lead, the readiness and the CLI status routes', async () => {
    const svc = new Svc({ baseUrl: server.url, apiKey: 'sk_wrong_key_000000000000', fetch: contractFetch, maxRetries: 0 });
    const errors = [
      await rejection(svc.track.sale({ transaction_id: 'pi_wrong_key', amount_cents: 100, customer_key: 'u1' })),
      await rejection(svc.track.lead({ customer_key: 'u1' })),
      await rejection(svc.readiness()),
      await rejection(svc.cli.status()),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(SvcUnauthorizedError);
      expect(error).toMatchObject({ status: 401, code: 'invalid_key', hint: hints.invalid_key });
    }
    // The wire's own code stays readable in the body.
    expect((errors[0] as SvcUnauthorizedError).body).toMatchObject({ error: { code: 'unauthorized' } });
  });
});
