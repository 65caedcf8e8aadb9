import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { programWithRecords, rowCounts, type ProgramFixture } from './fixtures';

// spec/rules.md "Authentication" rule 6: browser-mode calls (click, lead without key) are subject to the program's allowed
// origins. An unlisted origin gets 403, no CORS allow header, and nothing is recorded.
let h: Harness;
let program: ProgramFixture;
const allowed = 'https://shop.example.com';
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control.reset();
  program = await programWithRecords(h, { allowed_origins: [allowed] });
});

const origins = [
  'https://evil.example.net',
  'https://shop.example.com.evil.net',
  'http://shop.example.com',
  'https://shop.example.com:8443',
  'null',
];

describe('CORS refuses unlisted origins', () => {
  for (const origin of origins) {
    it(`click from ${origin}: 403, no allow header, nothing recorded`, async () => {
      const before = await rowCounts(h.store);
      const res = await h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example.com/?aff=${program.shortLink}` },
        headers: { origin },
      });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(await rowCounts(h.store)).toEqual(before);
    });

    it(`browser-mode lead from ${origin}: 403, no allow header, nothing recorded`, async () => {
      const click = await h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example.com/?aff=${program.shortLink}` },
        headers: { origin: allowed },
      });
      const before = await rowCounts(h.store);
      const res = await h.request('POST', '/api/v1/track/lead', {
        raw: JSON.stringify({ click_id: click.body.click_id }),
        contentType: 'text/plain',
        headers: { origin },
      });
      expect(res.status).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(await rowCounts(h.store)).toEqual(before);
    });
  }

  it('the listed origin is allowed and echoed', async () => {
    const res = await h.request('POST', '/api/v1/track/click', {
      json: { affiliate_url: `https://shop.example.com/?aff=${program.shortLink}` },
      headers: { origin: allowed },
    });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
  });
});
