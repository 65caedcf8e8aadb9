import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { launchChromium } from '../chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { startReceiver, waitFor, type Receiver } from './receiver';

// The Webhooks section of the dashboard in Chromium (its script is /dashboard/assets/webhooks.js; the CSP allows no
// inline script): add an endpoint and read its secret once, send a test event that a real receiver verifies, see
// the delivery, pause, and remove the endpoint.
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
let server: ReferenceServer;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  server = await startReferenceServer({ testControl: true });
  receiver = await startReceiver();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

describe('the Webhooks section in Chromium', () => {
  it('add an endpoint → copy the secret → send a test event (verified by the receiver) → delivered → pause → remove', async () => {
    const program = await server.control.createProgram({ name: 'Hooks shop', domain: 'shop.example' });
    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const [name, value] = cookie.split('=') as [string, string];
    const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${server.url}/dashboard/programs/${program.id}/webhooks`);
    const card = page.locator('#webhooks-card');
    await card.locator('#webhooks-list', { hasText: 'No endpoints yet.' }).waitFor({ timeout: 10_000 });

    // Add: only sale events ticked; the secret is shown once, in full.
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/svc-hook`);
    await page.getByLabel('sale.created').check();
    await page.getByLabel('sale.refunded').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('#new-webhook-secret').textContent({ timeout: 10_000 }))!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    receiver.secret = secret;
    const endpoint = card.locator('.webhook-endpoint');
    await expect.poll(() => endpoint.locator('.webhook-url').textContent()).toBe(`${receiver.url}/svc-hook`);
    expect(await endpoint.locator('p.muted').first().textContent()).toBe(`sale.created, sale.refunded · secret whsec_…${secret.slice(-4)}`);

    // Test-send: the receiver verifies it with standardwebhooks; the row turns delivered.
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    const [ping] = await waitFor('the test event', () => receiver.received.length === 1 && receiver.received, 3_000);
    expect(ping!.verifyError).toBeUndefined();
    expect(ping!.event.type).toBe('webhook.test');
    const row = endpoint.locator('tbody tr').first();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 8_000 }).toBe('delivered');
    expect((await row.locator('td').allTextContents()).slice(1, 4)).toEqual(['webhook.test', 'delivered', '1']);
    await page.screenshot({ path: `${shots}01-endpoint-and-delivery.png`, fullPage: true });

    // Pause, then remove.
    await endpoint.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => endpoint.locator('h4 .badge').textContent()).toBe('paused');
    await endpoint.getByRole('button', { name: 'Remove' }).click();
    await card.locator('#webhooks-list', { hasText: 'No endpoints yet.' }).waitFor({ timeout: 10_000 });
    const list = await contractFetch(`${server.url}/api/dashboard/programs/${program.id}/webhook-endpoints`, { headers: { cookie } });
    expect(((await list.json()) as { data: unknown[] }).data).toEqual([]);
    expect(errors).toEqual([]);
  });
});
