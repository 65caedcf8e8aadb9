import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { launchChromium } from '../chromium';

// The dashboard's own checks in Chromium with the program's allowed origins set (as the dashboard recommends): its
// test click and verification pass, and a step that fails says why on the page.
let server: ReferenceServer;
let browser: Browser;

beforeAll(async () => {
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
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 1000 } })).newPage();
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

describe('dashboard checks with allowed origins, in Chromium', () => {
  it('"Send test click" and "Run verification" pass; a failed step shows its reason', async () => {
    const owner = await signIn('origins@shop.example');
    await owner.getByLabel('Name', { exact: true }).fill('Origins shop');
    await owner.getByLabel('Website domain').fill('shop.example');
    await owner.getByLabel('Rate', { exact: true }).fill('10');
    await owner.getByRole('button', { name: 'Create program' }).click();
    await expect.poll(() => owner.locator('#pv-name').textContent(), { timeout: 10_000 }).toBe('Origins shop');
    const programId = Number(await owner.locator('#program-list a.active').getAttribute('data-program-id'));

    await owner.getByLabel('Allowed origins (one per line; empty = any origin)').fill('https://shop.example');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => owner.locator('#settings-result').textContent()).toContain('Settings saved.');

    await owner.getByRole('button', { name: 'Send test click' }).click();
    await expect.poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 }).toContain('Test click sent');
    await owner.locator('#events-list li[data-event-type="click"]', { hasText: 'test' }).first().waitFor({ timeout: 10_000 });

    await owner.getByRole('button', { name: 'Run verification' }).click();
    await expect
      .poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 })
      .toContain('svc itself works: its own synthetic test click, lead and sale were recorded');

    // The fixture's partner suspended: its link answers as a disabled one, and the page says so at the click.
    await server.store.db
      .updateTable('partners')
      .set({ status: 'suspended' })
      .where('program_id', '=', programId)
      .where('is_test', '=', 1)
      .execute();
    await owner.getByRole('button', { name: 'Run verification' }).click();
    await expect.poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 }).toContain('Verification failed');
    expect(await owner.locator('#verify-result li').allTextContents()).toEqual(['✗ click: This referral link has been turned off.']);
    await owner.context().close();
  });
});
