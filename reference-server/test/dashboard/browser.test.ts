import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { trackerSnippet } from '@svc/types';
import { openWithScriptHeld, signedInPage, signInWithForm, useBrowserServer } from '../chromium';

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const t = useBrowserServer();

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
});

const status = (key: string) =>
  fetch(`${t.server.url}/api/v1/cli/status`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

describe('dashboard in Chromium', () => {
  it('keeps a form unsent until its script took it over: no page load with the fields in the address', async () => {
    const owner = await signInWithForm(t, 'early@shop.example');
    // The page again, its script held back: the form is on screen, nothing handles it yet.
    const release = await openWithScriptHeld(owner, `${t.server.url}/dashboard/new`, 'new-program.js');
    const pageLoads: string[] = [];
    owner.on('request', (request) => {
      if (request.isNavigationRequest()) pageLoads.push(request.url());
    });
    const create = owner.getByRole('button', { name: 'Create program' });
    await create.waitFor();
    expect(await create.isDisabled()).toBe(true);
    await owner.getByLabel('Name', { exact: true }).fill('Early shop');
    await owner.getByLabel('Website domain').fill('early.example');
    await owner.getByLabel('Name', { exact: true }).press('Enter');
    // Enter on a form whose submit button is disabled sends nothing (HTML's implicit submission); had it loaded the
    // page, the fields filled above would be empty below and the program never created.

    release();
    await expect.poll(() => create.isEnabled(), { timeout: 10_000 }).toBe(true);
    await owner.getByLabel('Rate', { exact: true }).fill('10');
    await create.click();
    await expect.poll(() => owner.locator('#open-new-program').textContent(), { timeout: 10_000 }).toBe('Open Early shop');
    expect(pageLoads).toEqual([]);
    await owner.context().close();
  });

  it('signs in, creates a program, shows a live test click, verifies, and lets only the owner regenerate the key', async () => {
    const { server } = t;
    // Sign in (the dev account is created on first use) and create a program.
    const owner = await signInWithForm(t, 'owner@shop.example');
    await expect.poll(() => owner.locator('#empty-view').isVisible()).toBe(true);
    await owner.screenshot({ path: `${shots}01-signed-in.png`, fullPage: true });

    await owner.getByLabel('Name', { exact: true }).fill('Acme shop');
    await owner.getByLabel('Website domain').fill('shop.example');
    await owner.getByLabel('Commission', { exact: true }).selectOption('percent');
    await owner.getByLabel('Rate', { exact: true }).fill('20');
    await owner.getByRole('button', { name: 'Create program' }).click();
    const firstKey = (await owner.locator('#new-key-value').textContent({ timeout: 10_000 })) ?? '';
    expect(firstKey).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    expect(await status(firstKey)).toBe(200);
    await owner.screenshot({ path: `${shots}02-program-created.png`, fullPage: true });
    await owner.getByRole('link', { name: 'Open Acme shop' }).click();
    await owner.waitForURL(/\/dashboard\/programs\/\d+$/);
    const programId = Number(/\/programs\/(\d+)$/.exec(owner.url())?.[1]);
    expect(await owner.locator('#page-title').textContent()).toBe('Acme shop');
    expect(await owner.getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');

    // A test click from the verifier appears in the live event feed (the Events page, through the nav).
    await owner.getByRole('button', { name: 'Send test click' }).click();
    await expect.poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 }).toContain('Test click sent');
    await owner.getByRole('link', { name: 'Events' }).click();
    await owner.waitForURL(`${server.url}/dashboard/programs/${programId}/events`);
    const testRow = owner.locator('#events-list li[data-event-type="click"]', { hasText: 'test' });
    await testRow.first().waitFor({ timeout: 10_000 });

    // Real traffic arrives from outside the page (a partner link, the tracking API): the feed picks it up by polling.
    const partner = await server.control.createPartner({ program_id: programId, name: 'Pat the partner' });
    await server.control.createLink({ program_id: programId, partner_id: partner.id, short_link: 'pat' });
    const post = (path: string, body: unknown, key?: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<Record<string, unknown>>);
    const click = await post('/api/v1/track/click', { affiliate_url: 'https://shop.example/?aff=pat' });
    await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: 'cust_42' }, firstKey);
    await post('/api/v1/track/sale', { transaction_id: 'pi_1', amount_cents: 12_900, customer_key: 'cust_42' }, firstKey);
    await owner.locator('#events-list li[data-event-type="sale"]').waitFor({ timeout: 10_000 });
    await owner.screenshot({ path: `${shots}03-live-events.png`, fullPage: true });

    // Back to the overview: the figures and the verdict, and the period in the address survives a reload.
    await owner.goBack();
    await owner.waitForURL(`${server.url}/dashboard/programs/${programId}`);
    await expect.poll(() => owner.locator('#perf-partners').textContent(), { timeout: 10_000 }).toContain('Pat the partner');
    await expect.poll(() => owner.locator('#readiness-verdict').textContent(), { timeout: 10_000 }).toContain('Ready');
    await owner.getByRole('link', { name: '7 days' }).click();
    await owner.waitForURL(`${server.url}/dashboard/programs/${programId}?days=7`);
    await owner.reload();
    expect(await owner.getByRole('link', { name: '7 days' }).getAttribute('aria-current')).toBe('true');
    await expect.poll(() => owner.locator('#perf-days tr').count(), { timeout: 10_000 }).toBe(7);
    await expect.poll(() => owner.locator('#perf-stats').textContent()).toContain('100.0%');

    // Run verification: the synthetic chain passes.
    await owner.getByRole('button', { name: 'Run verification' }).click();
    await expect
      .poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 })
      .toContain('svc itself works: its own synthetic test click, lead and sale were recorded');
    await owner.locator('#verify-card').screenshot({ path: `${shots}04-verification.png` });

    // Settings: the attribution window is saved; the snippet carries the program's id.
    await owner.getByRole('link', { name: 'Settings' }).click();
    await owner.waitForURL(`${server.url}/dashboard/programs/${programId}/settings`);
    expect(await owner.locator('#pv-snippet').textContent()).toBe(trackerSnippet(server.url, programId));
    await expect.poll(() => owner.locator('#pv-key').textContent()).toBe(`svc_live_…${firstKey.slice(-4)}`);
    await owner.getByLabel('Attribution window (days)').fill('30');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => owner.locator('#settings-result').textContent()).toContain('Settings saved.');

    // The owner regenerates the key: the new one is shown once, the old one stops working.
    await owner.getByRole('button', { name: 'Regenerate key' }).click();
    await owner.getByRole('button', { name: 'Yes, regenerate' }).click();
    await expect.poll(async () => (await owner.locator('#new-key-value').textContent()) ?? '').not.toBe(firstKey);
    const secondKey = (await owner.locator('#new-key-value').textContent()) ?? '';
    expect(secondKey).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => owner.locator('#pv-key').textContent()).toBe(`svc_live_…${secondKey.slice(-4)}`);
    expect(await status(firstKey)).toBe(401);
    expect(await status(secondKey)).toBe(200);
    await owner.screenshot({ path: `${shots}05-key-regenerated.png`, fullPage: true });

    // A member signs in: /dashboard opens the program; they cannot regenerate (button off, and the server refuses).
    const { account_id } = await server.control.createAccount({ email: 'member@shop.example' });
    await server.control.addMembership({ account_id, program_id: programId, role: 'member' });
    const member = await signInWithForm(t, 'member@shop.example');
    await member.waitForURL(`${server.url}/dashboard/programs/${programId}`);
    expect(await member.locator('#pv-role').textContent()).toBe('Member');
    await member.goto(`${server.url}/dashboard/programs/${programId}/settings`);
    await expect.poll(() => member.locator('#regenerate-key').isDisabled()).toBe(true);
    expect(await member.locator('#regenerate-owner-only').isVisible()).toBe(true);
    const refused = await member.evaluate(async (id) => {
      const res = await fetch(`/api/dashboard/programs/${id}/regenerate-key`, { method: 'POST' });
      return { status: res.status, body: await res.json() };
    }, programId);
    expect(refused).toEqual({
      status: 403,
      body: {
        data: null,
        error: { status: 403, name: 'ForbiddenError', message: 'Only a workspace owner can regenerate the API key', details: {} },
      },
    });
    expect(await status(secondKey)).toBe(200);
    await member.screenshot({ path: `${shots}06-member-view.png`, fullPage: true });
  }, 120_000);

  it("opens a partner's page from the Partners page: their figures, links and the changes made to them", async () => {
    const { server } = t;
    const program = await server.control.createProgram({ name: 'Detail shop', domain: 'detail.example' });
    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const base = `${server.url}/api/dashboard/programs/${program.id}`;
    const call = (method: string, path: string, body: unknown) =>
      fetch(base + path, {
        method,
        headers: { cookie, origin: server.url, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const partner = ((await (await call('POST', '/partners', { name: 'Dana' })).json()) as { data: { id: number } }).data;
    expect((await call('POST', '/links', { partner_id: partner.id, short_link: 'dana' })).status).toBe(201);
    expect((await call('PATCH', `/partners/${partner.id}`, { status: 'suspended' })).status).toBe(200);

    const page = await signedInPage(t, program.account_id);
    await page.goto(`${server.url}/dashboard/programs/${program.id}/partners`);
    await page.getByRole('link', { name: 'Dana' }).click();
    await page.waitForURL(`${server.url}/dashboard/programs/${program.id}/partners/${partner.id}`);
    await expect.poll(() => page.locator('#partner-name').textContent(), { timeout: 10_000 }).toBe('Dana (suspended)');
    expect(await page.locator('#partner-links li[data-short-link="dana"] .link-url').textContent()).toBe(
      'https://detail.example/?aff=dana',
    );
    await expect.poll(() => page.locator('#partner-audit li').count()).toBe(2);
    expect(await page.getByRole('link', { name: 'Partners', exact: true }).getAttribute('aria-current')).toBe('true');
    await page.context().close();
  });
});
