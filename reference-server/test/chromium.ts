import { chromium, type Browser, type Page } from 'playwright-core';

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
 * Opens the dashboard at `url` with its script `asset` (`app.js`, `partners.js`) held back until the returned
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
