import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { launchChromium } from '../chromium';
import { startReceiver, waitFor, type Receiver } from '../webhooks-out/receiver';

// The Events, endpoint and Team sections in Chromium on a 390 px phone (their scripts: events.js on the Events page,
// webhook-endpoint.js on an endpoint's page, team.js on Settings; the CSP allows no inline script): events filtered
// and paged, a delivery inspected and resent to a real receiver that verifies it with `standardwebhooks`, a member
// invited who joins by signing in.
// Each section: no sideways scrolling, controls at least 40 px tall, the flow driven from the keyboard where it
// matters.
const shots = fileURLToPath(new URL('./screenshots/', import.meta.url));
let server: ReferenceServer;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  await mkdir(shots, { recursive: true });
  server = await startReferenceServer({
    testControl: true,
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  receiver = await startReceiver();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await server?.close();
});

async function phone(cookie?: string): Promise<{ page: Page; errors: Error[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  if (cookie) {
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
  }
  const page = await context.newPage();
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  page.on('dialog', (dialog) => void dialog.accept());
  return { page, errors };
}

/** Nothing scrolls sideways, and every visible control of the section is at least 40 px tall. */
async function fitsPhone(page: Page, section: Locator): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const box = (await section.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  for (const control of await section.locator('button:visible, select:visible, summary:visible').all()) {
    const { height } = (await control.boundingBox())!;
    expect(height, await control.evaluate((n) => n.outerHTML.slice(0, 80))).toBeGreaterThanOrEqual(40);
  }
}

async function programWithPartners() {
  const program = await server.control.createProgram({ name: 'Feed shop', domain: 'feed.example' });
  const key = program.api_token;
  const track = (path: string, json: unknown, auth = true) =>
    fetch(`${server.url}/api/v1/track/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(json),
    }).then((r) => r.json() as Promise<Record<string, unknown>>);
  const partners: Record<string, number> = {};
  for (const [name, link] of [
    ['Pat Doe', 'pat'],
    ['Sam Roe', 'sam'],
  ] as const) {
    partners[name] = (await server.control.createPartner({ program_id: program.id, name })).id;
    await server.control.createLink({ program_id: program.id, partner_id: partners[name], short_link: link });
  }
  return { program, track, partners };
}

describe('sections in Chromium at 390 px', () => {
  it('Events: partner names, a refund, filters by type and partner from the keyboard, older pages', async () => {
    const { program, track, partners } = await programWithPartners();
    // 55 clicks for Sam (more than the first page), then a sale for Pat that is refunded.
    for (let i = 0; i < 55; i++) await track('click', { affiliate_url: 'https://feed.example/?aff=sam' }, false);
    const click = await track('click', { affiliate_url: 'https://feed.example/?aff=pat' }, false);
    await track('lead', { click_id: click.click_id, customer_key: 'cust_pat' });
    await track('sale', { transaction_id: 'txn_pat', amount_cents: 4_200, currency: 'EUR', customer_key: 'cust_pat' });
    await track('refund', { transaction_id: 'txn_pat', reason: 'chargeback' });

    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const { page, errors } = await phone(cookie);
    await page.goto(`${server.url}/dashboard/programs/${program.id}/events`);
    const card = page.locator('#events-card');
    const rows = card.locator('#events-list > li');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(50);
    const sale = rows.first();
    expect(await sale.getAttribute('data-event-type')).toBe('sale');
    expect(await sale.textContent()).toContain('42.00 EUR');
    expect(await sale.textContent()).toContain('Pat Doe');
    expect(await sale.locator('.badge').allTextContents()).toEqual(['charged back']);
    expect(await sale.textContent()).toContain('its commission was reversed');
    await fitsPhone(page, card);
    await card.screenshot({ path: `${shots}10-events-390.png` });

    // Older events: the remaining clicks.
    await card.getByRole('button', { name: 'Older events' }).click();
    await expect.poll(() => rows.count()).toBe(58);
    expect(await card.getByRole('button', { name: 'Older events' }).isHidden()).toBe(true);

    // Filters from the keyboard: type "Refunded sales", then partner "Sam Roe" with type back to all.
    await expect.poll(() => card.locator('#events-partner option').count()).toBe(3);
    await card.getByLabel('Type', { exact: true }).focus();
    await card.getByLabel('Type', { exact: true }).selectOption('refund');
    await expect.poll(() => rows.count()).toBe(1);
    await card.getByLabel('Type', { exact: true }).selectOption('');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('events-partner');
    await card.getByLabel('Partner', { exact: true }).selectOption(String(partners['Sam Roe']));
    await expect.poll(async () => new Set(await rows.locator('p.muted').allTextContents()).size > 0 && (await rows.count())).toBe(50);
    for (const text of await rows.allTextContents()) expect(text).toContain('Sam Roe');
    await card.getByLabel('Type', { exact: true }).selectOption('sale');
    await expect.poll(() => card.locator('#events-empty').textContent()).toBe('No events match these filters.');

    // Live: a new click for Sam appears on top of the filtered feed by itself.
    await card.getByLabel('Type', { exact: true }).selectOption('click');
    await expect.poll(() => rows.count()).toBe(50);
    const newest = await rows.first().getAttribute('data-event-id');
    await track('click', { affiliate_url: 'https://feed.example/?aff=sam' }, false);
    await expect.poll(() => rows.first().getAttribute('data-event-id'), { timeout: 10_000 }).not.toBe(newest);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("Deliveries: open an endpoint's page, read the request and attempts from the keyboard, and Resend", async () => {
    const program = await server.control.createProgram({ name: 'Hook shop', domain: 'hook.example' });
    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const created = await fetch(`${server.url}/api/dashboard/programs/${program.id}/webhook-endpoints`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ url: `${receiver.url}/phone-hook` }),
    }).then((r) => r.json() as Promise<{ data: { id: number; secret: string } }>);
    receiver.secret = created.data.secret;
    receiver.answer = ({ count }) => (count === 1 ? { status: 500, body: 'database down' } : { status: 200, body: 'ok, got it' });

    const { page, errors } = await phone(cookie);
    await page.goto(`${server.url}/dashboard/programs/${program.id}/webhooks`);
    const endpoint = page.locator('#webhooks-card .webhook-endpoint');
    await endpoint.getByRole('button', { name: 'Send test event' }).click();
    await waitFor('the test event', () => receiver.received.length === 1, 5_000);

    // Deliveries, from the keyboard: the link opens the endpoint's own page. The list re-renders now and then (after
    // a test event, client/webhooks.ts; here once more by announcing the open program again, program-event.ts); the
    // focus stays on the same link of the new list (client/keep-place.ts).
    await endpoint.evaluate((node) => node.setAttribute('data-before-refresh', ''));
    await endpoint.getByRole('link', { name: 'Deliveries' }).focus();
    await page.evaluate(() => {
      const detail: unknown = JSON.parse(document.documentElement.dataset.openProgram!);
      document.dispatchEvent(new CustomEvent('svc:program', { detail }));
    });
    await expect.poll(() => page.locator('[data-before-refresh]').count(), { timeout: 10_000 }).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deliveries');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/dashboard/programs/${program.id}/webhooks/${created.data.id}`);
    const section = page.locator('#webhook-endpoint-card');
    expect(await section.getAttribute('data-endpoint-id')).toBe(String(created.data.id));
    // The facts arrive from the endpoint route after the page loads (client/webhook-endpoint.ts).
    await expect.poll(() => section.locator('#webhook-endpoint-facts').textContent(), { timeout: 10_000 }).toContain('State');
    const delivery = section.locator('#webhook-deliveries > li').first();
    await expect.poll(() => delivery.getAttribute('data-status'), { timeout: 10_000 }).toBe('failed');
    await section.locator('#webhook-endpoint-url', { hasText: '/phone-hook' }).waitFor();

    await delivery.locator('summary').focus();
    await page.keyboard.press('Enter');
    const body = JSON.parse((await delivery.locator('pre.request-body').textContent())!);
    expect(body).toEqual(JSON.parse(receiver.received[0]!.body));
    const attempt = delivery.locator('ol.attempts > li');
    expect(await attempt.count()).toBe(1);
    expect(await attempt.locator('strong').textContent()).toBe('Attempt 1: HTTP 500');
    expect(await attempt.locator('pre').textContent()).toBe('database down');
    await fitsPhone(page, section);
    await section.screenshot({ path: `${shots}11-deliveries-390.png` });

    // Resend: a new delivery of the same event, verified by the receiver, delivered. The list re-renders with it on
    // top; the first delivery keeps its disclosure open and the focus on its Resend button.
    const firstId = (await delivery.getAttribute('data-delivery-id'))!;
    await delivery.getByRole('button', { name: 'Resend' }).focus();
    await page.keyboard.press('Enter');
    await waitFor('the resend', () => receiver.received.length === 2, 5_000);
    await expect.poll(() => section.locator('#webhook-deliveries > li').count(), { timeout: 10_000 }).toBe(2);
    const resentFrom = section.locator(`#webhook-deliveries > li[data-delivery-id="${firstId}"]`);
    expect(await resentFrom.locator('details').getAttribute('open')).toBe('');
    expect(
      await page.evaluate(() => [document.activeElement?.textContent, document.activeElement?.closest('li')?.dataset.deliveryId]),
    ).toEqual(['Resend', firstId]);
    const [first, again] = receiver.received;
    expect(again!.verifyError).toBeUndefined();
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    await section.locator('#webhook-endpoint-result', { hasText: 'Resent webhook.test' }).waitFor();
    await section.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => section.locator('#webhook-deliveries > li').first().getAttribute('data-status'), { timeout: 10_000 })
      .toBe('delivered');
    expect(await section.locator('#webhook-deliveries > li').count()).toBe(2);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('Team: the owner invites by email; the invitee signs in and is a member; a member sees the team only', async () => {
    const program = await server.control.createProgram({ name: 'Team shop', domain: 'team.example' });
    const { cookie } = await server.control.createDashboardSession(program.account_id);
    const { page, errors } = await phone(cookie);
    await page.goto(`${server.url}/dashboard/programs/${program.id}/settings`);
    const card = page.locator('#team-card');
    await expect.poll(() => card.locator('#team-members > li').count(), { timeout: 10_000 }).toBe(1);

    // Invite from the keyboard: type the email, Enter submits.
    await card.getByLabel('Email', { exact: true }).fill('colleague@team.example');
    await card.getByLabel('Email', { exact: true }).press('Enter');
    await card.locator('#team-result', { hasText: 'Invited colleague@team.example' }).waitFor({ timeout: 10_000 });
    const pending = card.locator('#team-invitations > li');
    expect(await pending.textContent()).toContain('invited · Member');
    await fitsPhone(page, card);
    await card.screenshot({ path: `${shots}12-team-390.png` });

    // The invitee signs in with that email (the dev sign-in here) and /dashboard opens the program: a member now.
    const { page: invitee, errors: inviteeErrors } = await phone();
    await invitee.goto(`${server.url}/dashboard`);
    await invitee.getByRole('link', { name: 'Sign in' }).click();
    await invitee.getByLabel('Email address').fill('colleague@team.example');
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await invitee.waitForURL(`${server.url}/dashboard/programs/${program.id}`);
    await invitee.goto(`${server.url}/dashboard/programs/${program.id}/settings`);
    const theirCard = invitee.locator('#team-card');
    await expect.poll(() => theirCard.locator('#team-members > li').count(), { timeout: 10_000 }).toBe(2);
    expect(await theirCard.locator('#team-invite-form').isHidden()).toBe(true);
    expect(await theirCard.locator('#team-owner-only').isVisible()).toBe(true);
    expect(await theirCard.locator('#team-members select, #team-members button').count()).toBe(0);

    // The owner's view: the invitation became a member; make them an owner from the row's Role select.
    await page.reload();
    const row = card.locator('#team-members > li[data-role="member"]');
    await row.waitFor({ timeout: 10_000 });
    expect(await card.locator('#team-invitations > li').count()).toBe(0);
    await row.getByLabel('Role').selectOption('owner');
    await card.locator('#team-result', { hasText: 'colleague@team.example is now an owner.' }).waitFor();
    // The notice is written before the list is drawn again (client/team.ts): wait for the list.
    await expect.poll(() => card.locator('#team-members > li[data-role="owner"]').count(), { timeout: 10_000 }).toBe(2);
    expect([...errors, ...inviteeErrors]).toEqual([]);
    await invitee.context().close();
    await page.context().close();
  });
});
