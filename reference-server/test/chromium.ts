import { chromium, type Browser } from 'playwright-core';

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
