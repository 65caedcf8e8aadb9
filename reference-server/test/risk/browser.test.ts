import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { launchChromium } from '../chromium';

// The Risk page in Chromium at 390 px (its script is /dashboard/assets/risk.js): a self-referral with its
// evidence, the partner's held commission declined with a ban from the section, the count on the partner's row.
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

async function call(path: string, init: { method?: string; key?: string; cookie?: string; json?: unknown } = {}) {
  const res = await contractFetch(`${server.url}${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers: {
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.cookie ? { cookie: init.cookie, origin: server.url } : {}),
      ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });
  return { status: res.status, body: await res.json() };
}

describe('the Risk page in Chromium', () => {
  it('shows a self-referral with its evidence and declines the held commission with a ban, at 390 px', async () => {
    const { account_id } = await server.control.createAccount({ email: 'owner@risk-ui.example' });
    const program = await server.control.createProgram({ account_id, name: 'Risk shop', domain: 'shop.example' });
    const key = program.api_token;
    const jane = (await call('/api/v1/partners', { key, json: { name: 'Jane', email: 'jane@risk-ui.example' } })).body.data;
    expect((await call('/api/v1/links', { key, json: { partner_id: jane.id, short_link: 'jane-risk-ui' } })).status).toBe(201);
    const click = (await call('/api/v1/track/click', { json: { affiliate_url: 'https://shop.example/?aff=jane-risk-ui' } })).body;
    expect(
      (await call('/api/v1/track/lead', { key, json: { click_id: click.click_id, customer_key: 'self', email: 'Jane@risk-ui.example' } }))
        .status,
    ).toBe(200);
    const sale = await call('/api/v1/track/sale', {
      key,
      json: { transaction_id: 'txn_risk_ui', amount_cents: 5000, currency: 'USD', customer_key: 'self' },
    });
    expect(sale.status).toBe(200);

    const { cookie } = await server.control.createDashboardSession(account_id);
    const [name, value] = cookie.split('=') as [string, string];
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(`${server.url}/dashboard/programs/${program.id}/risk`);
    expect(await page.getByRole('link', { name: 'Risk' }).getAttribute('aria-current')).toBe('page');
    const card = page.locator('#risk-card');
    const items = card.locator('#risk-list > li');
    await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(1);
    expect(await items.first().locator('.risk-head').textContent()).toBe('Self-referral · Jane · customer self');
    expect(await items.first().locator('.risk-evidence li').allTextContents()).toEqual([
      'reason: same_email',
      'email: Jane@risk-ui.example',
      'partner email: jane@risk-ui.example',
    ]);
    await expect.poll(() => card.locator('input[value="self_referral"]').isChecked()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const review = card.getByRole('button', { name: 'Review held commissions' });
    expect((await review.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    await review.click();
    const row = card.locator(`[data-commission-id="${sale.body.commission_id}"]`);
    await row.waitFor();
    await card.getByLabel('Reason for a decline').fill('Bought through own link');
    await card.screenshot({ path: `${shots}01-risk-390.png` });
    await row.getByRole('button', { name: 'Decline and ban partner' }).click();
    await expect.poll(() => card.locator('.risk-review').textContent()).toContain('No held commissions for this partner.');

    const partners = (await call(`/api/dashboard/programs/${program.id}/partners`, { cookie })).body.data.partners;
    expect(partners[0]).toMatchObject({ status: 'suspended', risk_events: 1 });
    // The Partners page counts the partner's risk events beside their status.
    await page.goto(`${server.url}/dashboard/programs/${program.id}/partners`);
    await expect.poll(() => page.locator(`#partners-body tr[data-partner-id="${jane.id}"] [data-risk-count]`).textContent()).toBe('1 risk');
    expect(errors).toEqual([]);
    await context.close();
  });
});
