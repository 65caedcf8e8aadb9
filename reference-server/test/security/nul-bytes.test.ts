import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { devSignIn } from '../cli/support';
import { programWithRecords, rowCounts, type ProgramFixture } from './fixtures';

// U+0000 in a JSON string: PostgreSQL text cannot hold it, so both stores refuse it the same way (400 in the
// envelope, nothing recorded) instead of PostgreSQL failing the query with a 500. Found by the fuzzer.
let h: Harness;
let program: ProgramFixture;
beforeAll(async () => {
  h = await createHarness();
  program = await programWithRecords(h);
});
afterAll(() => h.close());

describe('strings holding U+0000', () => {
  const cases: [string, () => unknown, boolean][] = [
    ['/api/v1/track/refund', () => ({ transaction_id: 'txn\u0000x' }), true],
    ['/api/v1/track/sale', () => ({ transaction_id: 'txn\u0000y', amount_cents: 100, customer_key: program.customerKey }), true],
    ['/api/v1/track/lead', () => ({ customer_key: 'k\u0000' }), true],
    ['/api/v1/track/click', () => ({ affiliate_url: `https://shop.example.com/?aff=${program.shortLink}`, click_id: '\u0000' }), false],
  ];
  for (const [path, body, withKey] of cases) {
    it(`${path}: 400 Request body is not valid JSON, nothing recorded`, async () => {
      const before = await rowCounts(h.store);
      const res = await h.request('POST', path, { json: body(), ...(withKey ? { key: program.key } : {}) });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Request body is not valid JSON');
      expect(await rowCounts(h.store)).toEqual(before);
    });
  }

  it('a body nested 5,000 deep holding U+0000 answers the 400, not a 500', async () => {
    const depth = 5_000;
    const raw = `${'{"a":'.repeat(depth)}"\\u0000"${'}'.repeat(depth)}`;
    const before = await rowCounts(h.store);
    const res = await h.request('POST', '/api/v1/track/lead', { raw, contentType: 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Request body is not valid JSON');
    expect(await rowCounts(h.store)).toEqual(before);
    // The same depth without a NUL is an ordinary (if odd) body: the route's own 400.
    const plain = await h.request('POST', '/api/v1/track/lead', {
      raw: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      contentType: 'application/json',
    });
    expect(plain.status).toBe(400);
  });

  it('an escaped backslash before "u0000" is ordinary text, not a NUL', async () => {
    const res = await h.request('POST', '/api/v1/track/refund', { json: { transaction_id: 'txn\\u0000z' }, key: program.key });
    expect(res.status).toBe(404);
  });

  it('a login state or sign-in email holding U+0000 is unknown or invalid (404/400), never a 500, nothing recorded', async () => {
    const before = await rowCounts(h.store);
    expect((await h.request('GET', '/api/v1/cli/auth/poll?state=%00abc')).status).toBe(404);
    expect((await devSignIn(h, { email: 'nul@example.com', state: '\0abc' })).status).toBe(404);
    expect((await devSignIn(h, { email: 'n\0ul@example.com' })).status).toBe(400);
    expect(await rowCounts(h.store)).toEqual(before);
  });
});
