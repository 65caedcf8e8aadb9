import { describe, expect, it } from 'vitest';
import { signInWithForm, useBrowserServer } from '../chromium';

// The dashboard's own checks in Chromium with the program's allowed origins set (as the dashboard recommends): its
// test click and verification pass, and a step that fails says why on the page.
const t = useBrowserServer();

describe('dashboard checks with allowed origins, in Chromium', () => {
  it('"Send test click" and "Run verification" pass; a failed step shows its reason', async () => {
    const { server } = t;
    const owner = await signInWithForm(t, 'origins@shop.example');
    await owner.getByLabel('Name', { exact: true }).fill('Origins shop');
    await owner.getByLabel('Website domain').fill('shop.example');
    await owner.getByLabel('Rate', { exact: true }).fill('10');
    await owner.getByRole('button', { name: 'Create program' }).click();
    await owner.getByRole('link', { name: 'Open Origins shop' }).click();
    await owner.waitForURL(/\/dashboard\/programs\/\d+$/);
    const programId = Number(/\/programs\/(\d+)$/.exec(owner.url())?.[1]);
    await owner.goto(`${server.url}/dashboard/programs/${programId}/settings`);

    await owner.getByLabel('Allowed origins (one per line; empty = any origin)').fill('https://shop.example');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => owner.locator('#settings-result').textContent()).toContain('Settings saved.');
    await owner.goto(`${server.url}/dashboard/programs/${programId}`);

    await owner.getByRole('button', { name: 'Send test click' }).click();
    await expect.poll(() => owner.locator('#verify-result').textContent(), { timeout: 10_000 }).toContain('Test click sent');
    await owner.goto(`${server.url}/dashboard/programs/${programId}/events`);
    await owner.locator('#events-list li[data-event-type="click"]', { hasText: 'test' }).first().waitFor({ timeout: 10_000 });
    await owner.goBack();

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
