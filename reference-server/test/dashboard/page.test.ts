import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { htmlRequest } from '../cli/support';

const t = harnessPerFile();

describe('GET /dashboard', () => {
  it('shows the sign-in form without a session', async () => {
    const res = await htmlRequest(t.h, 'GET', '/dashboard');
    expect(res.status).toBe(200);
    expect(res.text).toContain('action="/auth/sign-in"');
    expect(res.text).not.toContain('name="state"');
  });

  it('serves the app to a signed-in account, its email escaped', async () => {
    const { account_id } = await t.h.control.createAccount({ email: 'o<b>@example.test' });
    const { cookie } = await t.h.control.createDashboardSession(account_id);
    const res = await htmlRequest(t.h, 'GET', '/dashboard', { headers: { cookie } });
    expect(res.text).toContain('o&lt;b&gt;@example.test');
    expect(res.text).toContain('/dashboard/assets/app.js');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('tells a suspended account why it cannot get in', async () => {
    const { account_id } = await t.h.control.createAccount({ blocked: true });
    const { cookie } = await t.h.control.createDashboardSession(account_id);
    const res = await htmlRequest(t.h, 'GET', '/dashboard', { headers: { cookie } });
    expect(res.text).toContain('Your account has been suspended.');
    expect(res.text).not.toContain('app.js');
  });

  it('serves its script and stylesheet, and nothing else', async () => {
    const js = await htmlRequest(t.h, 'GET', '/dashboard/assets/app.js');
    expect(js.headers['content-type']).toMatch(/^application\/javascript/);
    expect(() => new Function(js.text)).not.toThrow();
    const css = await htmlRequest(t.h, 'GET', '/dashboard/assets/app.css');
    expect(css.headers['content-type']).toMatch(/^text\/css/);
    const missing = await t.h.request('GET', '/dashboard/assets/secret.txt');
    expect(missing.status).toBe(404);
  });
});
