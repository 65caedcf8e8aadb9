import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignupResult } from '@svc/browser';
import {
  callSvc,
  clickCookie,
  createProgram,
  html,
  newVisit,
  open,
  scriptTag,
  scriptUrl,
  startWorld,
  storeUrl,
  waitForClickCookie,
  waitForPosts,
  type Program,
  type World,
} from './harness';

const clickPath = '/api/v1/track/click';
const leadPath = '/api/v1/track/lead';

describe('svc-tracker.js against the reference server', () => {
  let world: World;

  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world?.close());

  const posts = (path: string) => world.edge.seen.filter((r) => r.method === 'POST' && r.path === path);

  async function landOn(program: Program, partner: number, host = 'shop.example.test') {
    world.edge.page = () => html(scriptTag(world, { programId: program.id }));
    return storeUrl(world, host, `/?aff=${program.partners[partner]!.link}`);
  }

  it('sends the click as a simple request, without a preflight, and tells the service the page URL', async () => {
    const program = await createProgram(world);
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    const url = await landOn(program, 0);
    await open(visit, url);
    const cookie = await waitForClickCookie(visit);
    expect(world.edge.seen.some((r) => r.method === 'OPTIONS')).toBe(false);
    const [click] = posts(clickPath);
    expect(click!.contentType).toMatch(/^text\/plain/);
    expect(click!.origin).toBe(new URL(url).origin);
    expect(JSON.parse(click!.body)).toEqual({ affiliate_url: url });
    const records = await world.server.control.records(program.id);
    expect(records.clicks).toEqual([{ click_id: cookie.value, partner_id: program.partners[0]!.id, is_test: false }]);
    await visit.context.close();
  });

  it('keeps the first click: a second partner gets a click, the cookie and the customer stay with the first', async () => {
    const program = await createProgram(world, { partners: 2 });
    const visit = await newVisit(world);
    await open(visit, await landOn(program, 0));
    const first = await waitForClickCookie(visit);
    world.edge.seen.length = 0;
    await open(visit, await landOn(program, 1));
    await waitForPosts(world, clickPath, 1);
    expect(JSON.parse(posts(clickPath)[0]!.body)).toEqual({ affiliate_url: expect.stringContaining('aff='), click_id: first.value });
    await expect.poll(async () => (await world.server.control.records(program.id)).clicks.length).toBe(2);
    expect((await clickCookie(visit))?.value).toBe(first.value);

    const result = await callSvc<SignupResult>(visit, 'signup', 'user_first', { email: 'first@example.test' });
    expect(result).toEqual({ ok: true, response: { success: true, attributed: true, partner_id: program.partners[0]!.id } });
    const records = await world.server.control.records(program.id);
    expect(records.clicks.map((c) => c.partner_id)).toEqual([program.partners[0]!.id, program.partners[1]!.id]);
    const customer = records.customers.find((c) => c.customer_key === 'user_first');
    expect(customer).toMatchObject({ click_id: first.value, partner_id: program.partners[0]!.id, status: 'lead' });
    await visit.context.close();
  });

  it('records a signup tied to the click, and a repeated signup settles as success', async () => {
    const program = await createProgram(world);
    const visit = await newVisit(world);
    await open(visit, await landOn(program, 0));
    const cookie = await waitForClickCookie(visit);
    world.edge.seen.length = 0;
    const result = await callSvc<SignupResult>(visit, 'signup', 'user_42', { email: 'user42@example.test' });
    expect(result).toEqual({ ok: true, response: { success: true, attributed: true, partner_id: program.partners[0]!.id } });
    const [lead] = posts(leadPath);
    expect(lead!.contentType).toMatch(/^text\/plain/);
    expect(JSON.parse(lead!.body)).toEqual({
      click_id: cookie.value,
      customer_key: 'user_42',
      email: 'user42@example.test',
      additional_data: { program_id: program.id },
    });
    expect(world.edge.seen.some((r) => r.method === 'OPTIONS')).toBe(false);
    const records = await world.server.control.records(program.id);
    expect(records.customers).toContainEqual(
      expect.objectContaining({ customer_key: 'user_42', click_id: cookie.value, partner_id: program.partners[0]!.id, status: 'lead' }),
    );

    const again = await callSvc<SignupResult>(visit, 'signup', 'user_42', { email: 'user42@example.test' });
    expect(again).toEqual({ ok: true, response: { success: true }, alreadyLead: true });
    expect(visit.errors).toEqual([]);
    await visit.context.close();
  });

  it('with the cookie cleared, sends the customer key and program without a click id; the answer is a result', async () => {
    const program = await createProgram(world);
    const visit = await newVisit(world);
    await open(visit, await landOn(program, 0));
    await waitForClickCookie(visit);
    await visit.context.clearCookies();
    world.edge.seen.length = 0;
    const result = await callSvc<SignupResult>(visit, 'signup', 'user_cleared');
    expect(JSON.parse(posts(leadPath)[0]!.body)).toEqual({ customer_key: 'user_cleared', additional_data: { program_id: program.id } });
    // spec/rules.md "Attribution rules", "Cleared cookie": the lead is still recorded, unattributed.
    expect(result).toEqual({ ok: true, response: { success: true, attributed: false } });
    const records = await world.server.control.records(program.id);
    expect(records.customers).toContainEqual(expect.objectContaining({ customer_key: 'user_cleared', click_id: null, partner_id: null }));
    expect(visit.errors).toEqual([]);
    // Said once on the page, naming the cause; a second unattributed signup adds nothing.
    await callSvc<SignupResult>(visit, 'signup', 'user_cleared_again');
    expect(visit.console).toEqual(['[svc] signup has no partner: no svc_click_id cookie']);
    await visit.context.close();
  });

  // README, "Early calls": a signup queued before the script loaded follows the landing click and carries its id.
  it.each(['async', 'defer', 'classic', 'module'] as const)(
    'replays calls queued by the stub after the landing click, attributed to its partner (%s tag)',
    async (loading) => {
      const program = await createProgram(world);
      world.edge.page = () =>
        html(
          '<script>window.svc=window.svc||function(){(svc.q=svc.q||[]).push(arguments)};' +
            "svc('signup','user_queued',{email:'q@example.test'},function(r){window.queuedResult=r});" +
            "svc('getClickId',function(id){window.queuedClickId=id});</script>",
          scriptTag(world, { programId: program.id, loading }),
        );
      const visit = await newVisit(world);
      await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
      const result = await visit.page.waitForFunction(() => (window as unknown as { queuedResult?: unknown }).queuedResult);
      expect(await result.jsonValue()).toMatchObject({ ok: true });
      const cookie = await clickCookie(visit);
      expect(await visit.page.evaluate(() => (window as unknown as { queuedClickId?: string }).queuedClickId)).toBe(cookie!.value);
      const records = await world.server.control.records(program.id);
      expect(records.customers).toContainEqual(
        expect.objectContaining({ customer_key: 'user_queued', click_id: cookie!.value, partner_id: program.partners[0]!.id }),
      );
      expect(visit.errors).toEqual([]);
      await visit.context.close();
    },
  );

  it('holds a signup called while the landing click is in flight until it is answered', async () => {
    const program = await createProgram(world);
    world.edge.page = () =>
      html(
        scriptTag(world, { programId: program.id, loading: 'classic' }),
        "<script>svc('signup','user_at_once').then(function(r){window.atOnce=r})</script>",
      );
    const visit = await newVisit(world);
    await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
    await visit.page.waitForFunction(() => (window as unknown as { atOnce?: unknown }).atOnce);
    const cookie = await clickCookie(visit);
    const records = await world.server.control.records(program.id);
    expect(records.customers).toContainEqual(
      expect.objectContaining({ customer_key: 'user_at_once', click_id: cookie!.value, partner_id: program.partners[0]!.id }),
    );
    await visit.context.close();
  });

  it('sends nothing and sets nothing without ?aff=', async () => {
    const program = await createProgram(world);
    world.edge.page = () => html(scriptTag(world, { programId: program.id }));
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    await open(visit, storeUrl(world, 'shop.example.test', '/pricing?utm_source=news'));
    await visit.page.waitForTimeout(300);
    expect(world.edge.seen.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /js/svc-tracker.js']);
    expect(await visit.context.cookies()).toEqual([]);
    expect(await visit.page.evaluate(() => document.cookie)).toBe('');
    await visit.context.close();
  });

  it('leaves no cookie and no error on the page for a disabled link (410)', async () => {
    const program = await createProgram(world);
    await world.server.control.setLinkEnabled(program.partners[0]!.link, false);
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    await open(visit, await landOn(program, 0));
    await waitForPosts(world, clickPath, 1);
    await visit.page.waitForTimeout(300);
    expect(await clickCookie(visit)).toBeUndefined();
    expect(visit.errors).toEqual([]);
    expect(visit.console.filter((m) => !m.includes('410'))).toEqual([]);
    expect((await world.server.control.records(program.id)).clicks).toEqual([]);
    const result = await callSvc(visit, 'trackClick');
    expect(result).toMatchObject({ ok: false, status: 410, error: { code: 'link_disabled' } });
    await visit.context.close();
  });

  it('does nothing more when the script is on the page twice', async () => {
    const program = await createProgram(world);
    world.edge.page = () => html(scriptTag(world, { programId: program.id }), scriptTag(world, { programId: program.id }));
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    await open(visit, storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`));
    await waitForClickCookie(visit);
    await visit.page.waitForTimeout(300);
    expect(posts(clickPath)).toHaveLength(1);
    expect((await world.server.control.records(program.id)).clicks).toHaveLength(1);
    expect(visit.errors).toEqual([]);
    await visit.context.close();
  });

  it('keeps the aff value when a router rewrites the URL before the script runs', async () => {
    const program = await createProgram(world);
    world.edge.page = () =>
      html("<script>history.replaceState(null, '', '/app/dashboard')</script>", scriptTag(world, { programId: program.id }));
    const visit = await newVisit(world);
    world.edge.seen.length = 0;
    const url = storeUrl(world, 'shop.example.test', `/?aff=${program.partners[0]!.link}`);
    await open(visit, url);
    await waitForClickCookie(visit);
    expect(visit.page.url()).toMatch(/\/app\/dashboard$/);
    expect(JSON.parse(posts(clickPath)[0]!.body)).toEqual({ affiliate_url: url });
    await visit.context.close();
  });

  it('is served by the reference server with Cache-Control and an ETag', async () => {
    const response = await fetch(scriptUrl(world).replace(/^http:\/\/[^/]+/, world.server.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBeTruthy();
    expect(response.headers.get('etag')).toBeTruthy();
    expect(await response.text()).toContain('svc_click_id');
  });
});
