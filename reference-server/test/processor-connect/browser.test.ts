import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { launchChromium } from '../chromium';
import { startStripeConnectStandIn, type StripeConnectStandIn } from './stripe-connect-stand-in';

// The dashboard's "Connect with Stripe" in Chromium: the owner's click goes through Stripe's consent (a local
// stand-in of its OAuth endpoints) and back to the program, connected; Disconnect undoes it.
let server: ReferenceServer;
let stripe: StripeConnectStandIn;
let browser: Browser;

beforeAll(async () => {
  stripe = await startStripeConnectStandIn();
  server = await startReferenceServer({
    testControl: true,
    stripeConnect: { clientId: stripe.clientId, secretKey: stripe.secretKey, connectUrl: stripe.url },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await stripe?.close();
});

describe('dashboard: Connect with Stripe in Chromium', () => {
  it('the owner connects through Stripe and disconnects; a member is offered neither', async () => {
    const { account_id } = await server.control.createAccount({ email: 'owner@connect.example' });
    const program = await server.control.createProgram({ account_id, name: 'Connect shop', domain: 'connect.example' });
    stripe.account = 'acct_browserflow1';

    const page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => {
      throw error;
    });
    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email address').fill('owner@connect.example');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/dashboard/programs/${program.id}`);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.locator('#processor-state').textContent()).toBe('No Stripe Connect account connected.');
    expect(await page.getByRole('button', { name: 'Disconnect' }).isDisabled()).toBe(true);

    await page.getByRole('link', { name: 'Connect with Stripe' }).click();
    await page.waitForURL(`${server.url}/dashboard/programs/${program.id}/settings`);
    await expect.poll(() => page.locator('#processor-state').textContent()).toBe('Connected to Stripe account acct_browserflow1.');
    expect(stripe.tokenRequests).toEqual([{ code: expect.stringMatching(/^ac_/), status: 200 }]);

    await page.getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => page.locator('#processor-result').textContent()).toBe('Disconnected.');
    await expect.poll(() => page.locator('#processor-state').textContent()).toBe('No Stripe Connect account connected.');

    const member = await server.control.createAccount({ email: 'member@connect.example' });
    await server.control.addMembership({ account_id: member.account_id, program_id: program.id, role: 'member' });
    const memberPage = await (await browser.newContext()).newPage();
    await memberPage.goto(`${server.url}/dashboard`);
    await memberPage.getByRole('link', { name: 'Sign in' }).click();
    await memberPage.getByLabel('Email address').fill('member@connect.example');
    await memberPage.getByRole('button', { name: 'Sign in' }).click();
    await memberPage.waitForURL(`${server.url}/dashboard/programs/${program.id}`);
    await memberPage.goto(`${server.url}/dashboard/programs/${program.id}/settings`);
    await expect.poll(() => memberPage.locator('#processor-state').textContent()).toBe('No Stripe Connect account connected.');
    expect(await memberPage.getByRole('link', { name: 'Connect with Stripe' }).isVisible()).toBe(false);
    expect(await memberPage.getByRole('button', { name: 'Disconnect' }).isDisabled()).toBe(true);
  }, 60_000);
});
