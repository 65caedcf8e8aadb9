import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { launchChromium } from '../chromium';

// The Commissions section in Chromium (its script is /dashboard/assets/commissions.js): the hold period in the
// settings form, the list with its filter, approve and decline with a reason, and a clawback, at 390 px wide.
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
let server: ReferenceServer;
let browser: Browser;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  server = await startReferenceServer({ testControl: true });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const res = await contractFetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status, path).toBeLessThan(300);
  return await res.json();
}

describe('the Commissions section in Chromium', () => {
  it('hold period in settings → pending sales listed → approve one, decline one with a reason → record a clawback', async () => {
    const program = await server.control.createProgram({
      name: 'Hold shop',
      domain: 'shop.example',
      commission_type: 'percent',
      commission_rate: 10,
    });
    const partner = await server.control.createPartner({ program_id: program.id });
    const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const [name, value] = cookie.split('=') as [string, string];
    const context = await browser.newContext({ viewport: { width: 390, height: 1600 }, hasTouch: true });
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(`${server.url}/dashboard/programs/${program.id}/settings`);

    // The settings form shows and saves the hold period.
    const hold = page.getByLabel('Commission hold period (days, 0 to 365)');
    await expect.poll(() => hold.inputValue(), { timeout: 10_000 }).toBe('0');
    await hold.fill('30');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#settings-result', { hasText: 'Settings saved.' }).waitFor();

    // Two sales while the hold runs.
    const key = { authorization: `Bearer ${program.api_token}` };
    for (const n of [1, 2]) {
      const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example/?aff=${link.short_link}` }, {});
      await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: `cust_ui_${n}` }, key);
      await post(
        '/api/v1/track/sale',
        { transaction_id: `txn_ui_${n}`, amount_cents: 10_000 * n, currency: 'USD', customer_key: `cust_ui_${n}` },
        key,
      );
    }
    await page.goto(`${server.url}/dashboard/programs/${program.id}/commissions`);
    const card = page.locator('#commissions-card');
    await page.getByLabel('Status').selectOption('pending');
    await card.getByRole('button', { name: 'Show' }).click();
    const rows = card.locator('#commissions-body tr');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')))).toEqual(['pending', 'pending']);
    const approve = rows.nth(1).getByRole('button', { name: 'Approve' });
    expect((await approve.boundingBox())!.height).toBeGreaterThanOrEqual(44);

    await approve.click();
    await card.locator('#commissions-result', { hasText: 'approved: due now.' }).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    const first = rows.first();
    await first.getByRole('textbox').fill('Order cancelled by phone');
    await first.getByRole('button', { name: 'Decline' }).click();
    await card.locator('#commissions-result', { hasText: 'declined.' }).waitFor();

    // A clawback for the partner, due at once.
    await page.getByLabel('Partner id', { exact: true }).last().fill(String(partner.id));
    await page.getByLabel('Amount in cents (negative for a clawback)').fill('-250');
    await page.getByLabel('Reason', { exact: true }).fill('Chargeback fee');
    await page.getByRole('button', { name: 'Record adjustment' }).click();
    await card.locator('#commissions-result', { hasText: '-2.50 USD, due now.' }).waitFor();
    await page.getByLabel('Status').selectOption('');
    await card.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')))).toEqual(['due', 'declined', 'due']);
    await page.screenshot({ path: `${shots}01-commissions-390.png`, fullPage: true });
    // Nothing wider than the screen but the scrolling tables.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    const list = await contractFetch(`${server.url}/api/dashboard/programs/${program.id}/commissions`, { headers: { cookie } });
    const data = ((await list.json()) as { data: { kind: string; status: string; amount_cents: number; decline_reason: string | null }[] })
      .data;
    expect(data.map((c) => [c.kind, c.status, c.amount_cents, c.decline_reason])).toEqual([
      ['adjustment', 'due', -250, null],
      ['sale', 'declined', 2_000, 'Order cancelled by phone'],
      ['sale', 'due', 1_000, null],
    ]);
    expect(errors).toEqual([]);
  });
});
