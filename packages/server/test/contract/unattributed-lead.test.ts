import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Svc } from '../../src';

// An unattributed lead (no click: the forgotten cookie) against the real reference server: the answer says so and
// the SDK warns once per process, naming the cause. Every response is validated against the spec by contractFetch.
let server: ReferenceServer;
let svc: Svc;
let shortLink: string;
let partnerId: number;

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  partnerId = (await server.control.createPartner({ program_id: program.id })).id;
  shortLink = (await server.control.createLink({ program_id: program.id, partner_id: partnerId })).short_link;
  svc = new Svc({ baseUrl: server.url, apiKey: program.api_token, fetch: contractFetch });
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

describe('svc.track.lead and attribution', () => {
  it('an attributed lead answers its partner and warns nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const click = await svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` });
    const lead = await svc.track.lead({ click_id: click.click_id, customer_key: 'came_through_partner' });
    expect(lead).toMatchObject({ success: true, attributed: true, partner_id: partnerId });
    expect(warn).not.toHaveBeenCalled();
  });

  it('an unattributed lead answers attributed: false and warns once per process, naming click_id', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const first = await svc.track.lead({ customer_key: 'forgot_the_cookie' });
    expect(first).toMatchObject({ success: true, attributed: false });
    expect(first).not.toHaveProperty('partner_id');
    await svc.track.lead({ customer_key: 'forgot_it_again' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/attributed: false.*click_id.*svc_click_id/s);
  });
});
