import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { clickCookieHeaders as ClickCookieHeaders } from '@svc/server/cookies';
import {
  clickCookie,
  callSvc,
  createProgram,
  html,
  newVisit,
  open,
  scriptTag,
  startWorld,
  storeUrl,
  waitForClickCookie,
  waitForPosts,
  type World,
} from './harness';

// @svc/server's build, by URL like the reference server's in harness.ts: @svc/server's tests depend on the reference
// server, which depends on this package, so a devDependency on @svc/server would make a cycle.
const builtCookies = new URL('../../../server/dist/cookies.js', import.meta.url).href;
const { clickCookieHeaders } = (await import(builtCookies)) as { clickCookieHeaders: typeof ClickCookieHeaders };

const clickPath = '/api/v1/track/click';

// svc-tracker.full.js: consent hold and cross-domain hand-off. Chromium only: it uses Playwright's clock and clicks.
describe('svc-tracker.full.js', () => {
  let world: World<'chromium'>;

  beforeAll(async () => {
    world = await startWorld('chromium');
  });
  afterAll(() => world?.close());

  const clickPosts = () => world.edge.seen.filter((r) => r.method === 'POST' && r.path === clickPath);

  it('holds the aff value until consent, then records the click of the landing URL', async () => {
    const program = await createProgram(world);
    world.edge.page = () => html(scriptTag(world, { programId: program.id, build: 'full', attributes: { 'data-svc-consent': 'pending' } }));
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    const landing = storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`);
    await open(visit, landing);
    await visit.page.waitForTimeout(300);
    expect(clickPosts()).toEqual([]);
    expect(await visit.context.cookies()).toEqual([]);
    expect(await visit.page.evaluate(() => sessionStorage.getItem('svc_held_url'))).toBe(landing);

    // The consent banner answers on another page of the same visit.
    await open(visit, storeUrl(world, 'shop.example.test', '/pricing'));
    expect(clickPosts()).toEqual([]);
    const result = await callSvc(visit, 'consent', true);
    expect(result).toMatchObject({ ok: true });
    expect(JSON.parse(clickPosts()[0]!.body)).toEqual({ affiliate_url: landing });
    expect((await waitForClickCookie(visit)).domain).toBe('.example.test');
    expect(await visit.page.evaluate(() => sessionStorage.getItem('svc_held_url'))).toBeNull();
    expect((await world.server.control.records(program.id)).clicks).toHaveLength(1);
    await visit.context.close();
  });

  it('forgets the held aff value when consent is refused', async () => {
    const program = await createProgram(world);
    world.edge.page = () => html(scriptTag(world, { programId: program.id, build: 'full', attributes: { 'data-svc-consent': 'pending' } }));
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
    await callSvc(visit, 'consent', false);
    await visit.page.waitForTimeout(200);
    expect(clickPosts()).toEqual([]);
    expect(await visit.context.cookies()).toEqual([]);
    expect(await visit.page.evaluate(() => sessionStorage.length)).toBe(0);
    await visit.context.close();
  });

  it('hands the click id to another domain of the site, where it is adopted without a second click', async () => {
    const program = await createProgram(world, { partners: 2 });
    world.edge.page = (url) =>
      url.hostname === 'shop.example.test'
        ? html(
            scriptTag(world, { programId: program.id, build: 'full', attributes: { 'data-svc-domains': 'app.example.net' } }),
            `<a id="app" href="${storeUrl(world, 'app.example.net', '/welcome?plan=pro')}">open the app</a>`,
          )
        : html(scriptTag(world, { programId: program.id, build: 'full' }), '<h1>app</h1>');
    const visit = await newVisit(world);
    await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
    const shopCookie = await waitForClickCookie(visit);
    world.edge.seen.length = 0;

    await visit.page.click('#app');
    await visit.page.waitForURL(/app\.example\.net/);
    await visit.page.waitForFunction(() => (window as unknown as { svc?: { loaded?: boolean } }).svc?.loaded === true);
    const url = new URL(visit.page.url());
    expect(url.searchParams.get('plan')).toBe('pro');
    expect(url.searchParams.get('svc_click_id')).toBe(shopCookie.value);
    const appCookie = (await visit.context.cookies()).find((c) => c.name === 'svc_click_id' && c.domain === '.example.net');
    expect(appCookie?.value).toBe(shopCookie.value);
    expect(Math.abs(appCookie!.expires - shopCookie.expires)).toBeLessThanOrEqual(5);
    expect(clickPosts()).toEqual([]);

    // First click still wins on the app domain: another partner's link is reported with the adopted click id.
    await open(visit, storeUrl(world, 'app.example.net', `/?aff=${program.partners[1]!.link}`));
    await waitForPosts(world, clickPath, 1);
    expect(JSON.parse(clickPosts()[0]!.body).click_id).toBe(shopCookie.value);
    await expect.poll(async () => (await world.server.control.records(program.id)).clicks.length).toBe(2);
    expect((await clickCookie(visit))?.value).toBe(shopCookie.value);
    await visit.context.close();
  });

  // spec/rules.md "What the service does", item 8 and spec/rules.md "Limits" (Safari's cap): the storefront's server re-issues the cookie with
  // @svc/server/cookies, which must read the browser's svc_click_exp (Unix seconds) and keep that expiry.
  it('keeps the original expiry when the storefront re-issues the cookie 20 days later, and the hand-off still works', async () => {
    const program = await createProgram(world, { windowDays: 30 });
    const later = 20 * 86_400_000;
    let reissued: string[] = [];
    world.edge.page = (url, cookie) => {
      if (url.hostname !== 'shop.example.test') return html(scriptTag(world, { programId: program.id, build: 'full' }), '<h1>app</h1>');
      const body = html(
        scriptTag(world, { programId: program.id, build: 'full', attributes: { 'data-svc-domains': 'app.example.net' } }),
        `<a id="app" href="${storeUrl(world, 'app.example.net', '/welcome')}">open the app</a>`,
      );
      if (url.pathname !== '/later') return body;
      reissued = clickCookieHeaders(
        { cookie, hostname: url.hostname, secure: false },
        { now: Date.now() + later, windowDays: program.windowDays },
      );
      return { headers: { 'set-cookie': reissued }, body };
    };
    const visit = await newVisit(world);
    const expCookie = async (domain: string) =>
      (await visit.context.cookies()).find((c) => c.name === 'svc_click_exp' && c.domain === domain);
    await visit.context.clock.install();
    await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
    const landed = await waitForClickCookie(visit);
    const expires = (await expCookie('.example.test'))!.value;
    // Unix seconds, the cookie's own expiry.
    expect(expires).toMatch(/^\d{10}$/);
    expect(Math.abs(Number(expires) - landed.expires)).toBeLessThanOrEqual(1);

    // 20 days later for the page and for the storefront's server.
    await visit.context.clock.setSystemTime(Date.now() + later);
    await open(visit, storeUrl(world, 'shop.example.test', '/later'));
    expect(reissued).toHaveLength(2);
    expect(reissued[0]).toMatch(new RegExp(`^svc_click_id=${landed.value}; .*Expires=${new Date(Number(expires) * 1000).toUTCString()};`));
    expect(reissued[1]).toMatch(new RegExp(`^svc_click_exp=${expires};`));
    expect((await expCookie('.example.test'))?.value).toBe(expires);
    const kept = await clickCookie(visit);
    expect(kept?.value).toBe(landed.value);

    world.edge.seen.length = 0;
    await visit.page.click('#app');
    await visit.page.waitForURL(/app\.example\.net/);
    await visit.page.waitForFunction(() => (window as unknown as { svc?: { loaded?: boolean } }).svc?.loaded === true);
    const url = new URL(visit.page.url());
    expect(url.searchParams.get('svc_click_id')).toBe(landed.value);
    expect(url.searchParams.get('svc_click_exp')).toBe(expires);
    const appCookie = (await visit.context.cookies()).find((c) => c.name === 'svc_click_id' && c.domain === '.example.net');
    expect(appCookie?.value).toBe(landed.value);
    expect((await expCookie('.example.net'))?.value).toBe(expires);
    // The app domain's cookie ends when the re-issued one does: both have the 10 days left of the window.
    // The app domain's cookie ends at the original expiry (`svc_click_exp`, the date js-cookie writes), never later.
    // (The re-issued cookie is checked on its Set-Cookie above: Chromium stores a server cookie's expiry relative
    // to the response's Date, which this test moves 20 days ahead with the page clock.)
    expect(Math.abs(appCookie!.expires - Number(expires))).toBeLessThanOrEqual(1);
    expect(clickPosts()).toEqual([]);
    expect(visit.errors).toEqual([]);
    await visit.context.close();
  });
});
