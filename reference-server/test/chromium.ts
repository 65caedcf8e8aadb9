import { type BrowserContextOptions, chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../src/start';

/**
 * Debian's Chromium, headless, for the browser tests (`CHROMIUM_PATH` overrides the path). The background-network
 * flags keep it from dialling out of a closed network at every start.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * Opens the dashboard at `url` with its script `asset` (`new-program.js`, `partners.js`) held back until the returned
 * `release()`: what a slow load does. Returns once the page's HTML arrived (`domcontentloaded` would wait for the
 * held script, as the page's scripts are deferred).
 */
export async function openWithScriptHeld(page: Page, url: string, asset: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`**/dashboard/assets/${asset}*`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url, { waitUntil: 'commit' });
  return release;
}

/** A reference server (test control, the suite's database) and Chromium, for one test file. */
export interface BrowserServer {
  server: ReferenceServer;
  browser: Browser;
}

/**
 * Starts the server and Chromium before the file's tests and closes both after them; the returned object is filled
 * in by then (read its fields inside tests, not at import time).
 */
export function useBrowserServer(): BrowserServer {
  const t = {} as BrowserServer;
  beforeAll(async () => {
    t.server = await startReferenceServer({
      testControl: true,
      ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    });
    t.browser = await launchChromium();
  });
  afterAll(async () => {
    await t.browser?.close();
    await t.server?.close();
  });
  return t;
}

/** A phone's screen (and touch), or a laptop's. */
export const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
export const laptop = { viewport: { width: 1280, height: 1000 } };

/**
 * Signs `email` in through the development sign-in form, as a person would, and returns the page on /dashboard.
 * Errors thrown by the page's scripts fail the test.
 */
export async function signInWithForm(t: BrowserServer, email: string, options: BrowserContextOptions = laptop): Promise<Page> {
  const page = await (await t.browser.newContext(options)).newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  await page.goto(`${t.server.url}/dashboard`);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/dashboard'));
  await page.locator('#account-email').waitFor();
  return page;
}

/** A page of a browser already signed in as `accountId` (a dashboard session made by test control, as its cookie). */
export async function signedInPage(t: BrowserServer, accountId: number, options: BrowserContextOptions = laptop): Promise<Page> {
  const { cookie } = await t.server.control.createDashboardSession(accountId);
  const [name, value] = cookie.split('=') as [string, string];
  const context = await t.browser.newContext(options);
  await context.addCookies([{ name, value, url: t.server.url }]);
  return context.newPage();
}
