import { type Browser } from 'playwright-core';
import { launchChromium } from '../../test/chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../testing/fetch';
import { programRecords } from '../store/records';
import { demo } from './seed';
import type { Demo } from './start-demo';
import { startTestDemo } from './test-demo';

let running: Demo;
let browser: Browser;

beforeAll(async () => {
  running = await startTestDemo();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await running?.close();
});

/** Signs in through the development identity provider, as the banner tells a newcomer to. */
async function dashboardCookie(): Promise<string> {
  const form = await fetch(`${running.url}/auth/sign-in`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const response = await fetch(`${running.url}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.headers.get('set-cookie')!.split(';')[0]! },
    body: new URLSearchParams({ email: demo.email, csrf }),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

describe('pnpm start: the demo walk-through', () => {
  it('serves the storefront with the demo program id on the tracker tag', async () => {
    const html = await (await fetch(running.links.storefront)).text();
    expect(html).toContain(`<script src="/js/svc-tracker.js" data-svc-program-id="${running.seeded.programId}" async></script>`);
    expect((await fetch(`${running.links.storefront}../store/secrets.txt`)).status).toBe(404);
  });

  it('turns a referral click, a storefront signup and a purchase into a click, a lead and a sale with its commission', async () => {
    const page = await browser.newPage();
    await page.goto(running.links.referral);
    await expect.poll(async () => (await page.context().cookies()).find((c) => c.name === 'svc_click_id')?.value).toMatch(/.+/);
    const clickId = (await page.context().cookies()).find((c) => c.name === 'svc_click_id')!.value;

    await page.fill('#email', 'grace@example.com');
    await page.click('#signup button');
    await expect.poll(() => page.textContent('#signup-result')).toMatch(/^Signed up as user_/);
    await page.click('button[data-product="dart"]');
    await expect
      .poll(() => page.textContent('#buy-result'))
      .toMatch(/^Paid 49\.00 USD\. svc recorded sale \d+; the partner earns 9\.80 USD \(20 %\)\.$/);
    await page.close();

    const records = await programRecords(running.store.db, running.seeded.programId);
    expect(records.clicks).toEqual([{ click_id: clickId, partner_id: running.seeded.partnerId, is_test: 0 }]);
    expect(records.customers).toMatchObject([
      { click_id: clickId, partner_id: running.seeded.partnerId, status: 'converted', provisional: 0 },
    ]);
    expect(records.sales).toMatchObject([{ amount_cents: 4900, currency: 'USD', is_test: 0, refunded: 0 }]);
    // The demo program pays 20 percent.
    expect(records.commissions).toMatchObject([{ sale_id: records.sales[0]!.id, amount_cents: 980 }]);

    const events = await contractFetch(`${running.url}/api/tracking/events/${running.seeded.programId}`, {
      headers: { cookie: await dashboardCookie() },
    });
    const body = (await events.json()) as { data: { events: { type: string; click_id: string | null }[] } };
    expect(body.data.events.map((e) => e.type).sort()).toEqual(['click', 'lead', 'sale']);
    expect(body.data.events.every((e) => e.click_id === clickId)).toBe(true);
  });

  it('fits a 390 px phone: sign-in (naming the demo accounts), dashboard with its partners, and the storefront', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const fits = async () => page.evaluate(() => document.documentElement.scrollWidth);
    await page.goto(running.links.signIn);
    expect(await page.locator('#sign-in-hint').textContent()).toContain(demo.email);
    expect(await fits()).toBeLessThanOrEqual(390);
    await page.getByLabel('Email address').fill(demo.email);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // /dashboard opens the demo program's overview; its Partners page fits too.
    const program = `${running.links.dashboard}/programs/${running.seeded.programId}`;
    await page.waitForURL(program);
    expect(await page.locator('#page-title').textContent()).toBe(demo.programName);
    await expect.poll(fits).toBeLessThanOrEqual(390);
    await page.goto(`${program}/partners`);
    await page.locator('#partners-body tr').first().waitFor();
    await expect.poll(fits).toBeLessThanOrEqual(390);
    await page.goto(running.links.storefront);
    expect(await fits()).toBeLessThanOrEqual(390);
    await context.close();
  });

  it('answers a purchase before signup with a clear message and records nothing', async () => {
    const response = await fetch(`${running.links.storefront}api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'glider' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Sign up first.' });
  });

  it('refuses an unknown product without reporting a sale', async () => {
    const signup = await fetch(`${running.links.storefront}api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'lin@example.com' }),
    });
    const cookie = signup.headers.get('set-cookie')!.split(';')[0]!;
    const before = (await programRecords(running.store.db, running.seeded.programId)).sales.length;
    const response = await fetch(`${running.links.storefront}api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ product: 'free-lunch' }),
    });
    expect(response.status).toBe(400);
    expect((await programRecords(running.store.db, running.seeded.programId)).sales).toHaveLength(before);
  });

  it('reports the SDK error when svc refuses the sale (a customer with no attribution)', async () => {
    const signup = await fetch(`${running.links.storefront}api/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'no-click@example.com' }),
    });
    const response = await fetch(`${running.links.storefront}api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: signup.headers.get('set-cookie')!.split(';')[0]! },
      body: JSON.stringify({ product: 'glider' }),
    });
    expect(response.status).toBe(502);
    expect(((await response.json()) as { message: string }).message).toMatch(/^svc did not record the sale: /);
  });
});
