import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clickCookie, callSvc, createProgram, html, newVisit, open, scriptTag, startWorld, storeUrl, waitForClickCookie, waitForPosts, type World } from './harness';

const clickPath = '/api/v1/track/click';

// svc-tracker.full.js: consent hold and cross-domain hand-off.
describe('svc-tracker.full.js', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
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
});
