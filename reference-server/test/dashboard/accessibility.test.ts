import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { contractFetch } from '../../src/testing/fetch';
import { laptop, phone, signedInPage, useBrowserServer } from '../chromium';

// axe-core over every page of the dashboard (merchant, partner, sign-in, CLI Authorize) in Chromium, at 1280 and
// 390 px: no serious or critical violation, and at 390 px nothing wider than the screen and no control under 40 px.
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const t = useBrowserServer();

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** Runs axe-core in the page (evaluated by the browser's devtools, so the page's strict CSP stays as it is). */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (c: Document, o: object) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** What reaches past a 390 px screen (the page scrolls sideways), named by tag, id and class; nothing when it does not. */
function widerThanScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    if (document.documentElement.scrollWidth <= 390) return [];
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > 390 && !e.closest('.scroll'))
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} (${Math.round(e.getBoundingClientRect().right)} px)`)
      .slice(0, 8);
  });
}

/** Controls shorter than 40 px to tap (a checkbox's target is its label; links inside text are not controls). */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('button, a.button, a.chip, summary, ul.nav a, select, input:not([type="checkbox"]):not([type="hidden"])')]
      .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 40)
      .map(
        (e) => `${e.tagName.toLowerCase()} "${(e.textContent ?? '').trim() || e.id}" (${Math.round(e.getBoundingClientRect().height)} px)`,
      ),
  );
}

/** Opens `url`, waits for the page's scripts to fill it, and checks it at the context's width. */
async function check(page: Page, url: string, width: number): Promise<void> {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  const res = await page.goto(`${t.server.url}${url}`, { waitUntil: 'networkidle' });
  expect(res?.status(), url).toBe(200);
  expect(await violations(page), `${url} at ${width} px`).toEqual([]);
  if (width === 390) {
    expect(await widerThanScreen(page), `${url} at 390 px`).toEqual([]);
    expect(await smallTargets(page), `${url} at 390 px`).toEqual([]);
  }
  expect(errors, url).toEqual([]);
}

/**
 * A program with a partner (who is also an account), a link, traffic with a sale (bought with the partner's own
 * email: a self-referral for the Risk page), a payout and a webhook endpoint.
 */
async function program(tag: string) {
  const { account_id } = await t.server.control.createAccount({ email: `owner-${tag}@a11y.example` });
  const p = await t.server.control.createProgram({
    account_id,
    name: 'Accessible shop',
    domain: 'shop.example',
    commission_type: 'percent',
    commission_rate: 20,
  });
  const { cookie } = await t.server.control.createDashboardSession(account_id);
  const call = (method: string, path: string, body: unknown, auth: Record<string, string>) =>
    contractFetch(`${t.server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: t.server.url, ...auth },
      body: JSON.stringify(body),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
  const partner = (
    await call('POST', `/api/dashboard/programs/${p.id}/partners`, { name: 'Pat Partner', email: `pat-${tag}@a11y.example` }, { cookie })
  ).body.data as { id: number };
  await t.server.control.createLink({ program_id: p.id, partner_id: partner.id, short_link: `pat-${tag}` });
  const click = await call('POST', '/api/v1/track/click', { affiliate_url: `https://shop.example/?aff=pat-${tag}` }, {});
  const key = { authorization: `Bearer ${p.api_token}` };
  await call(
    'POST',
    '/api/v1/track/lead',
    { click_id: click.body.click_id, customer_key: 'cust_1', email: `pat-${tag}@a11y.example` },
    key,
  );
  await call('POST', '/api/v1/track/sale', { transaction_id: 'txn_1', amount_cents: 4_900, customer_key: 'cust_1' }, key);
  const endpoint = await call(
    'POST',
    `/api/dashboard/programs/${p.id}/webhook-endpoints`,
    { url: 'https://hooks.example/svc' },
    { cookie },
  );
  expect(endpoint.status).toBe(201);
  const { account_id: partnerAccount } = await t.server.control.createAccount({ email: `pat-${tag}@a11y.example` });
  const { cookie: partnerCookie } = await t.server.control.createDashboardSession(partnerAccount);
  await call('POST', `/api/partner/invitations/${partner.id}/accept`, {}, { cookie: partnerCookie });
  return { id: p.id, account_id, partnerId: partner.id, endpointId: (endpoint.body.data as { id: number }).id, partnerAccount };
}

describe('accessibility of every dashboard page (axe-core in Chromium)', () => {
  it.each([
    ['1280', laptop],
    ['390', phone],
  ] as const)(
    'has no serious or critical violation at %s px',
    async (width, options) => {
      const p = await program(width);
      const base = `/dashboard/programs/${p.id}`;
      const merchant = await signedInPage(t, p.account_id, options);
      for (const path of [
        '',
        '?days=7',
        '/events',
        '/partners',
        `/partners/${p.partnerId}`,
        '/commissions',
        '/payouts',
        '/risk',
        '/webhooks',
        `/webhooks/${p.endpointId}`,
        '/settings',
      ])
        await check(merchant, base + path, Number(width));
      await check(merchant, '/dashboard/new', Number(width));

      const partner = await signedInPage(t, p.partnerAccount, options);
      for (const url of ['/dashboard', '/dashboard/partner', `/dashboard/partner/${p.id}`]) await check(partner, url, Number(width));

      // Signed out: the dashboard's sign-in button, the sign-in form, and the CLI's Authorize step after it.
      const visitor = await (await t.browser.newContext(options)).newPage();
      await check(visitor, '/dashboard', Number(width));
      const start = await contractFetch(`${t.server.url}/api/v1/cli/auth/start`, { method: 'POST' });
      const { state } = ((await start.json()) as { data: { state: string } }).data;
      await check(visitor, `/auth/sign-in?state=${encodeURIComponent(state)}`, Number(width));
      await visitor.getByLabel('Email address').fill(`cli-${width}@a11y.example`);
      await visitor.getByRole('button', { name: 'Sign in' }).click();
      await visitor.locator('#user-code').waitFor();
      expect(await violations(visitor), `Authorize at ${width} px`).toEqual([]);
      if (width === '390') expect(await widerThanScreen(visitor)).toEqual([]);
      await Promise.all([merchant, partner, visitor].map((page) => page.context().close()));
    },
    120_000,
  );
});
