import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { launchChromium, openWithScriptHeld } from '../chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trackerSnippet } from '@svc/types';
import { startReferenceServer, type ReferenceServer } from '../../src/start';

const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
let server: ReferenceServer;
let browser: Browser;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  server = await startReferenceServer({
    testControl: true,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function signIn(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.url}/dashboard`);
  await expect.poll(() => page.locator('#account-email').textContent()).toBe(email);
  return page;
}

const status = (key: string) =>
  fetch(`${server.url}/api/v1/cli/status`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);

describe('dashboard in Chromium', () => {
  it('keeps a form unsent until its script took it over: no page load with the fields in the address', async () => {
    const owner = await signIn('early@shop.example');
    // The page again, its script held back: the form is on screen, nothing handles it yet.
    const release = await openWithScriptHeld(owner, `${server.url}/dashboard`, 'app.js');
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
    await expect.poll(() => owner.locator('#pv-name').textContent(), { timeout: 10_000 }).toBe('Early shop');
    expect(pageLoads).toEqual([]);
    await owner.context().close();
  });

  it('signs in, creates a program, shows a live test click, verifies, and lets only the owner regenerate the key', async () => {
    // Sign in (the dev account is created on first use) and create a program.
    const owner = await signIn('owner@shop.example');
    await expect.poll(() => owner.locator('#empty-view').isVisible()).toBe(true);
    await owner.screenshot({ path: `${shots}01-signed-in.png`, fullPage: true });

    await owner.getByLabel('Name', { exact: true }).fill('Acme shop');
    await owner.getByLabel('Website domain').fill('shop.example');
    await owner.getByLabel('Commission', { exact: true }).selectOption('percent');
    await owner.getByLabel('Rate', { exact: true }).fill('20');
    await owner.getByRole('button', { name: 'Create program' }).click();
    const firstKey = (await owner.locator('#new-key-value').textContent({ timeout: 10_000 })) ?? '';
    expect(firstKey).toMatch(/^svc_live_[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => owner.locator('#pv-name').textContent()).toBe('Acme shop');
    expect(await owner.locator('#pv-key').textContent()).toBe(`svc_live_…${firstKey.slice(-4)}`);
    const programId = Number(await owner.locator('#program-list a.active').getAttribute('data-program-id'));
    expect(programId).toBeGreaterThan(0);
    expect(await status(firstKey)).toBe(200);
    // The snippet to paste starts with the queue stub, so early svc(...) calls wait for the tracker.
    expect(await owner.locator('#pv-snippet').textContent()).toBe(trackerSnippet(server.url, programId));
    await owner.screenshot({ path: `${shots}02-program-created.png`, fullPage: true });

    // A test click from the verifier appears in the live event feed.
    await owner.getByRole('button', { name: 'Send test click' }).click();
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
    await expect.poll(() => owner.locator('#perf-partners').textContent(), { timeout: 10_000 }).toContain('Pat the partner');
    await expect.poll(() => owner.locator('#readiness-verdict').textContent(), { timeout: 10_000 }).toContain('Ready');
    await owner.screenshot({ path: `${shots}03-live-events.png`, fullPage: true });

    // Run verification: the synthetic chain passes.
    await owner.getByRole('button', { name: 'Run verification' }).click();
    await expect
      .poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 })
      .toContain('svc itself works: its own synthetic test click, lead and sale were recorded');
    await owner.locator('#verify-card').screenshot({ path: `${shots}04-verification.png` });

    // Settings: the attribution window is saved.
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

    // A member signs in: sees the program, cannot regenerate (button off, and the server refuses).
    const { account_id } = await server.control.createAccount({ email: 'member@shop.example' });
    await server.control.addMembership({ account_id, program_id: programId, role: 'member' });
    const member = await signIn('member@shop.example');
    await expect.poll(() => member.locator('#pv-role').textContent()).toBe('Member');
    expect(await member.locator('#regenerate-key').isDisabled()).toBe(true);
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
});
