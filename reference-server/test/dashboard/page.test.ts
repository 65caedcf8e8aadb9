import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { harnessPerFile } from '../harness';
import { htmlRequest } from '../cli/support';

const t = harnessPerFile();

describe('GET /dashboard', () => {
  it('shows a Sign in button without a session', async () => {
    const res = await htmlRequest(t.h, 'GET', '/dashboard');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<a class="button" id="sign-in" href="\/auth\/sign-in">Sign in<\/a>/);
  });

  it('the dashboard and sign-in pages refuse framing, sniffing and inline script (CSP)', async () => {
    for (const url of ['/dashboard', '/auth/sign-in']) {
      const res = await htmlRequest(t.h, 'GET', url);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toContain('unsafe-inline');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.text, url).not.toMatch(/<script>|<script [^>]*>[^<]|style="|onclick=/);
      // HSTS only when PUBLIC_URL is https (the harness serves plain HTTP).
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('storefronts can still load the tracker script cross-origin (Cross-Origin-Resource-Policy: cross-origin)', async () => {
    const res = await t.h.app.inject({ method: 'GET', url: '/js/svc-tracker.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  // A production-shaped server (no test control) on the harness's database, with and without the Stripe secret.
  it.each([
    [['whsec_configured'], 'Signing secret: configured on this server.'],
    [[], 'Signing secret: not configured. Set <code>SVC_PROCESSOR_WEBHOOK_SECRET</code>'],
  ])('shows the Stripe endpoint to paste, its three events, and whether a secret is configured (%j)', async (secrets, state) => {
    const app = buildApp({ store: t.h.store, processorWebhookSecrets: secrets, publicUrl: 'http://svc.example.test:8787' });
    await app.ready();
    try {
      const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
      const { cookie } = await t.h.control.createDashboardSession(program.account_id);
      const res = await app.inject({ method: 'GET', url: `/dashboard/programs/${program.id}/settings`, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(
        '<pre class="snippet" id="processor-webhook-url">http://svc.example.test:8787/api/v1/webhooks/processor</pre>',
      );
      expect(res.body).toContain(
        '<code>checkout.session.completed</code>, <code>invoice.payment_succeeded</code> and <code>charge.refunded</code>',
      );
      expect(res.body).toContain(state);
      // Without SVC_STRIPE_*, no Connect link: the page says what to set.
      expect(res.body).not.toContain('id="processor-connect"');
      expect(res.body).toContain('Connect with Stripe is not configured on this server');
    } finally {
      await app.close();
    }
  });

  it('serves the app to a signed-in account, its email escaped', async () => {
    const { account_id } = await t.h.control.createAccount({ email: 'o<b>@example.test' });
    const { cookie } = await t.h.control.createDashboardSession(account_id);
    const res = await htmlRequest(t.h, 'GET', '/dashboard', { headers: { cookie } });
    expect(res.text).toContain('o&lt;b&gt;@example.test');
    expect(res.text).toContain('/dashboard/assets/new-program.js');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('tells a suspended account why it cannot get in', async () => {
    const { account_id } = await t.h.control.createAccount({ blocked: true });
    const { cookie } = await t.h.control.createDashboardSession(account_id);
    const res = await htmlRequest(t.h, 'GET', '/dashboard', { headers: { cookie } });
    expect(res.text).toContain('Your account has been suspended.');
    expect(res.text).not.toContain('/dashboard/assets/new-program.js');
  });

  it('serves its script and stylesheet, and nothing else', async () => {
    const js = await htmlRequest(t.h, 'GET', '/dashboard/assets/overview.js');
    expect(js.headers['content-type']).toMatch(/^application\/javascript/);
    // It parses as a script (compiled, never run).
    expect(() => new Script(js.text)).not.toThrow();
    const css = await htmlRequest(t.h, 'GET', '/dashboard/assets/app.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const missing = await t.h.request('GET', '/dashboard/assets/secret.txt');
    expect(missing.status).toBe(404);
  });

  it('versions its asset URLs by content: cached for good at that version, revalidated by ETag otherwise', async () => {
    const program = await t.h.control.createProgram({ name: 'Acme', domain: 'acme.example' });
    const { cookie } = await t.h.control.createDashboardSession(program.account_id);
    const page = await htmlRequest(t.h, 'GET', `/dashboard/programs/${program.id}/settings`, { headers: { cookie } });
    const urls = [...page.text.matchAll(/(?:src|href)="(\/dashboard\/assets\/[^"]+)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(urls.map((url) => url.replace(/\?v=[\w-]+$/, ''))).toEqual([
      '/dashboard/assets/app.css',
      '/dashboard/assets/settings.js',
      '/dashboard/assets/team.js',
      '/dashboard/assets/audit.js',
    ]);
    for (const url of urls) {
      const versioned = await htmlRequest(t.h, 'GET', url);
      expect(versioned.status, url).toBe(200);
      expect(versioned.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
      const plain = await htmlRequest(t.h, 'GET', url.replace(/\?.*$/, ''));
      expect(plain.text, url).toBe(versioned.text);
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.headers.etag, url).toMatch(/.+/);
      const stale = await t.h.app.inject({ method: 'GET', url: url.replace(/\?.*$/, '?v=old') });
      expect(stale.headers['cache-control'], url).toBe('no-cache');
      const unchanged = await t.h.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(plain.headers.etag) } });
      expect(unchanged.statusCode, url).toBe(304);
    }
    // Only the built files: no directory listing, no traversal, nothing else that sits beside them.
    for (const url of [
      '/dashboard/assets/',
      '/dashboard/assets//app.js',
      '/dashboard/assets/..%2fpackage.json',
      '/dashboard/assets/app.js.map',
      '/dashboard/assets/index.html',
    ]) {
      expect((await t.h.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
