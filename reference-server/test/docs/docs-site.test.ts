import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config';
import { createHarness, type Harness } from '../harness';

/** A built site as VitePress writes it: clean URLs as `.html` files, an inline theme script on every page. */
const themeScript = '(()=>{document.documentElement.classList.add("dark")})()';
const page = (title: string) =>
  `<!DOCTYPE html><html><head><script id="check-dark-mode">${themeScript}</script>` +
  `<script type="module" src="/docs/assets/app.js"></script></head><body style="margin:0"><h1>${title}</h1></body></html>`;

let site: string;
beforeAll(() => {
  site = mkdtempSync(join(tmpdir(), 'svc-docs-'));
  mkdirSync(join(site, 'errors'));
  writeFileSync(join(site, 'index.html'), page('svc'));
  writeFileSync(join(site, 'errors', 'timeout.html'), page('timeout'));
});
afterAll(() => rmSync(site, { recursive: true, force: true }));

const get = (h: Harness, path: string) => h.fetch(`http://127.0.0.1:8787${path}`, { redirect: 'manual' });

describe('the docs site at /docs/', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ docs: { dir: site } });
  });
  afterAll(() => h.close());

  it('serves the pages by their clean URLs, under the pages headers and a CSP allowing its inline script by hash only', async () => {
    const home = await get(h, '/docs/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<h1>svc</h1>');
    const error = await get(h, '/docs/errors/timeout');
    expect(error.status).toBe(200);
    expect(error.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await error.text()).toContain('<h1>timeout</h1>');
    expect(error.headers.get('x-frame-options')).toBe('DENY');
    expect(error.headers.get('x-content-type-options')).toBe('nosniff');

    const csp = error.headers.get('content-security-policy')!;
    const scriptSrc = csp.split(';').find((d) => d.startsWith('script-src'))!;
    const hash = createHash('sha256').update(themeScript).digest('base64');
    expect(scriptSrc).toBe(`script-src 'self' 'sha256-${hash}'`);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('sends /docs to /docs/ and answers 404 for a page it does not have', async () => {
    const root = await get(h, '/docs');
    expect(root.status).toBe(301);
    expect(root.headers.get('location')).toBe('/docs/');
    const missing = await get(h, '/docs/errors/no_such_code');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ data: null, error: { message: 'Route not found' } });
  });

  it('points the key-rotation docs_url at its page', async () => {
    const program = await h.control.createProgram({});
    await h.control.markKeyRotation(program.id, { rotate_by: '2099-01-01T00:00:00.000Z' });
    await h.control.clock({ now: '2099-01-01T00:00:01.000Z' });
    const retired = await h.request('GET', '/api/v1/programs/me/readiness', { key: program.api_token });
    await h.control.clock({ now: new Date().toISOString() });
    expect(retired.body.error.docs_url).toBe('http://127.0.0.1:8787/docs/key-rotation');
  });
});

describe('SVC_DOCS_URL: the site lives elsewhere', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ docs: { url: 'https://docs.example/svc' } });
  });
  afterAll(() => h.close());

  it('redirects every /docs path there, so links built from the server address arrive', async () => {
    const error = await get(h, '/docs/errors/timeout');
    expect(error.status).toBe(302);
    expect(error.headers.get('location')).toBe('https://docs.example/svc/errors/timeout');
    const root = await get(h, '/docs');
    expect(root.headers.get('location')).toBe('https://docs.example/svc/');
  });

  it('points docs_url there', async () => {
    const program = await h.control.createProgram({});
    await h.control.markKeyRotation(program.id, { rotate_by: '2099-01-01T00:00:00.000Z' });
    const marked = await h.request('GET', '/api/v1/programs/me/readiness', { key: program.api_token });
    expect(marked.body.warnings?.[0]?.docs_url ?? marked.headers.link).toMatch(/https:\/\/docs\.example\/svc\/key-rotation/);
  });

  it('is read from the environment, and refused when it is not an http(s) URL', () => {
    expect(readConfig({ SVC_DOCS_URL: 'https://docs.example/svc/' }).docsUrl).toBe('https://docs.example/svc');
    expect(readConfig({}).docsUrl).toBeUndefined();
    expect(() => readConfig({ SVC_DOCS_URL: 'docs.example' })).toThrow(/SVC_DOCS_URL must be an absolute http\(s\) URL/);
  });
});

describe('a site that is not built', () => {
  it('answers 404 at /docs/', async () => {
    const h = await createHarness({ docs: { dir: join(site, 'nothing-here') } });
    try {
      expect((await get(h, '/docs/')).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});
