import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcConflictError, SvcNotFoundError, SvcUnauthorizedError } from '../../src';

// svc.partners and svc.links against the real reference server; every response is validated against the spec.
let server: ReferenceServer;
let svc: Svc;

beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  const program = await server.control.createProgram({ domain: 'shop.example' });
  svc = new Svc({ baseUrl: server.url, apiKey: program.api_token, fetch: contractFetch });
});
afterAll(() => server.close());

describe('partners and links through @svc/server', () => {
  it('adds a partner, gives them a link, records a click through it, and turns it off', async () => {
    const partner = (await svc.partners.create({ name: 'Jane', email: 'jane@example.com' })).data;
    expect(partner).toMatchObject({ name: 'Jane', email: 'jane@example.com', status: 'active' });

    const link = (await svc.links.create({ partner_id: partner.id, short_link: 'jane-sdk' })).data;
    expect(link).toMatchObject({ short_link: 'jane-sdk', url: 'https://shop.example/?aff=jane-sdk', enabled: true });
    const generated = (await svc.links.create({ partner_id: partner.id })).data;
    expect(generated.short_link).toMatch(/^[A-Za-z0-9_-]{8}$/);
    await expect(svc.links.create({ partner_id: partner.id, short_link: 'jane-sdk' })).rejects.toBeInstanceOf(SvcConflictError);

    await svc.track.click({ affiliate_url: link.url });
    const [listed] = (await svc.partners.list()).data.partners;
    expect(listed).toMatchObject({ id: partner.id, figures: { clicks: 1 } });
    expect((await svc.links.list({ partner_id: partner.id })).data.links.map((l) => l.short_link)).toEqual([
      'jane-sdk',
      generated.short_link,
    ]);

    expect((await svc.links.update('jane-sdk', { enabled: false })).data.enabled).toBe(false);
    await expect(svc.track.click({ affiliate_url: link.url })).rejects.toMatchObject({ status: 410 });
  });

  it('answers 404 for an unknown partner or link, and 401 without a key', async () => {
    await expect(svc.links.create({ partner_id: 999_999 })).rejects.toBeInstanceOf(SvcNotFoundError);
    await expect(svc.links.update('no-such-link', { enabled: false })).rejects.toBeInstanceOf(SvcNotFoundError);
    const keyless = new Svc({ baseUrl: server.url, apiKey: 'svc_live_wrong', fetch: contractFetch });
    await expect(keyless.partners.list()).rejects.toBeInstanceOf(SvcUnauthorizedError);
  });
});
