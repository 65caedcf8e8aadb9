import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

// `pnpm test` builds @svc/tracker first; the script must exist, so a missing build fails here rather than skipping.
const builtFile = (name: string) => createRequire(import.meta.url).resolve(`@svc/tracker/${name}`);

// Through the harness's validating fetch (the body is JavaScript, not JSON).
const get = (headers: Record<string, string> = {}) => h.fetch('http://inject.local/js/svc-tracker.js', { headers });

describe('GET /js/svc-tracker.js', () => {
  it('is built', () => {
    expect(existsSync(builtFile('svc-tracker.js'))).toBe(true);
  });

  it('serves the built @svc/tracker script with caching headers and a strong ETag', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const file = readFileSync(builtFile('svc-tracker.js'), 'utf8');
    expect(await res.text()).toBe(file);
  });

  it('may be loaded from any origin, as a module script too (CORS) and under COEP (CORP)', async () => {
    const res = await get({ origin: 'https://shop.example' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });

  it('is immutable for a year at ?v=<the served version>, hourly for any other version', async () => {
    const version = (createRequire(import.meta.url)('@svc/tracker/package.json') as { version: string }).version;
    const pinned = await h.fetch(`http://inject.local/js/svc-tracker.js?v=${version}`);
    expect(pinned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(pinned.headers.get('x-svc-tracker-version')).toBe(version);
    const other = await h.fetch('http://inject.local/js/svc-tracker.js?v=0.0.0-old');
    expect(other.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(await other.text()).toBe(await pinned.text());
  });

  it('answers 304 to a matching If-None-Match, 200 otherwise', async () => {
    const etag = String((await get()).headers.get('etag'));
    const notModified = await get({ 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(notModified.headers.get('etag')).toBe(etag);
    expect((await get({ 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
  });
});

describe('GET /js/svc-tracker.full.js', () => {
  it('serves the full build (consent and cross-domain hand-off) with its own ETag', async () => {
    const res = await h.fetch('http://inject.local/js/svc-tracker.full.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(readFileSync(builtFile('svc-tracker.full.js'), 'utf8'));
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(res.headers.get('etag')).not.toBe((await get()).headers.get('etag'));
  });
});
