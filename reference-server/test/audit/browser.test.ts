import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../../src/testing/fetch';
import { phone, signedInPage, useBrowserServer } from '../chromium';

// The Audit log section in Chromium at 390 px (on the Settings page; its script is /dashboard/assets/audit.js): the newest entries with
// who, what and the change in words, "Older entries", the filter by action; nothing wider than the phone's screen.
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const t = useBrowserServer();

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
});

describe('the Audit log section in Chromium', () => {
  it('shows the entries newest first, pages to older ones, filters by action, at 390 px', async () => {
    const { server } = t;
    const { account_id } = await server.control.createAccount({ email: 'owner@audit-ui.example' });
    const program = await server.control.createProgram({ account_id, name: 'Audit shop', domain: 'shop.example' });
    // 26 partners added with the program key, then a settings change in the dashboard: 27 entries, 25 a page.
    for (let i = 1; i <= 26; i++) {
      const res = await contractFetch(`${server.url}/api/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${program.api_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Partner ${i}` }),
      });
      expect(res.status).toBe(201);
    }
    const { cookie } = await server.control.createDashboardSession(account_id);
    const changed = await contractFetch(`${server.url}/api/dashboard/programs/${program.id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ attribution_window_days: 14 }),
    });
    expect(changed.status).toBe(200);

    const page = await signedInPage(t, account_id, phone);
    const errors: Error[] = [];
    page.on('pageerror', (error) => errors.push(error));
    await page.goto(`${server.url}/dashboard/programs/${program.id}/settings`);
    const card = page.locator('#audit-card');
    const items = card.locator('#audit-list > li');
    await expect.poll(() => items.count(), { timeout: 10_000 }).toBe(25);

    const newest = items.first();
    expect(await newest.locator('.audit-head').textContent()).toBe(`Settings changed program:${program.id}`);
    expect(await newest.locator('.audit-who').textContent()).toMatch(/^owner@audit-ui\.example · /);
    expect(await newest.locator('.audit-details li').allTextContents()).toEqual(['attribution window (days): 60 → 14']);
    expect(await items.nth(1).locator('.audit-who').textContent()).toMatch(new RegExp(`^api key …${program.api_token.slice(-4)} · `));
    expect(await items.nth(1).locator('.audit-details li').allTextContents()).toEqual([
      'name: Partner 26',
      'email: none',
      'invitation: accepted',
    ]);

    // Tappable controls, and nothing wider than the screen.
    const older = page.getByRole('button', { name: 'Older entries' });
    expect((await older.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect((await page.getByLabel('Action').boundingBox())!.height).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await card.screenshot({ path: `${shots}01-audit-log-390.png` });

    await older.click();
    await expect.poll(() => items.count()).toBe(27);
    expect(await older.isHidden()).toBe(true);
    await expect.poll(() => card.locator('#audit-result').textContent()).toBe('2 older entries shown.');
    expect(await items.last().locator('.audit-details li').first().textContent()).toBe('name: Partner 1');

    await page.getByLabel('Action').selectOption({ label: 'Settings changed' });
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().getAttribute('data-action')).toBe('program.updated');
    await page.getByLabel('Action').selectOption({ label: 'Commission declined' });
    await expect.poll(() => card.locator('#audit-result').textContent()).toBe('No entries for this action.');
    expect(await items.count()).toBe(0);

    // A change made meanwhile shows after Refresh.
    await page.getByLabel('Action').selectOption({ label: 'All actions' });
    await expect.poll(() => items.count()).toBe(25);
    const again = await contractFetch(`${server.url}/api/dashboard/programs/${program.id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ lead_auth: 'browser_allowed' }),
    });
    expect(again.status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => items.first().locator('.audit-details li').allTextContents())
      .toEqual(['lead authentication: server_required → browser_allowed']);
    expect(errors).toEqual([]);
  }, 60_000);
});
