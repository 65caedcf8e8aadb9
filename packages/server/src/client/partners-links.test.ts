import { catalogue } from '@svc/types';
import { http } from 'msw';
import { describe, expect, it } from 'vitest';
import { client, ok, platformError, url, useMsw } from '../../test/support/msw';
import { SvcConflictError, type SvcError } from '../errors/errors';

const server = useMsw();
const partner = {
  id: 3,
  name: 'Jane',
  email: 'jane@example.com',
  status: 'active',
  invitation: 'pending',
  commission_type: null,
  commission_rate: null,
  created_at: '2025-03-01T10:00:00.000Z',
} as const;
const link = {
  id: 5,
  partner_id: 3,
  short_link: 'jane',
  url: 'https://shop.example/?aff=jane',
  enabled: true,
  disabled_by: null,
  created_at: '2025-03-01T10:00:00.000Z',
};

/** Answers `method path` with the responses in order, recording each request. */
function route(method: 'get' | 'post' | 'patch', path: string, responses: Array<() => Response>) {
  const seen: Array<{ url: URL; body: unknown; auth: string | null }> = [];
  server.use(
    http[method](url(path), async ({ request }) => {
      seen.push({
        url: new URL(request.url),
        body: method === 'get' ? undefined : await request.json(),
        auth: request.headers.get('authorization'),
      });
      return responses[Math.min(seen.length, responses.length) - 1]!();
    }),
  );
  return seen;
}

describe('svc.partners', () => {
  it('create() posts the body with the key and returns the partner', async () => {
    const seen = route('post', '/api/v1/partners', [() => ok({ data: partner })]);
    const result = await client().partners.create({ name: 'Jane', email: 'jane@example.com' });
    expect(result.data).toEqual(partner);
    expect(seen).toMatchObject([{ body: { name: 'Jane', email: 'jane@example.com' }, auth: 'Bearer svc_live_secret_key_1234' }]);
  });

  it('create() is not retried after a 500 (a retry could add the partner twice)', async () => {
    const seen = route('post', '/api/v1/partners', [() => platformError(500, 'InternalServerError', catalogue.dashboardFailed.message)]);
    await expect(client().partners.create({ name: 'Jane' })).rejects.toMatchObject({ status: 500 });
    expect(seen).toHaveLength(1);
  });

  it('list() is a read, retried after a 500', async () => {
    const figures = {
      clicks: 1,
      leads: 0,
      sales: 0,
      revenue_cents: {},
      commissions: { due_cents: {}, held_cents: {}, paid_cents: {}, reversed_cents: {}, balance_cents: {} },
    };
    const seen = route('get', '/api/v1/partners', [
      () => platformError(500, 'InternalServerError', catalogue.dashboardFailed.message),
      () =>
        ok({
          data: { partners: [{ ...partner, terms: { commission_type: 'percent', commission_rate: 20, source: 'program' }, figures }] },
        }),
    ]);
    const result = await client().partners.list();
    expect(result.data.partners[0]?.figures.clicks).toBe(1);
    expect(seen).toHaveLength(2);
  });
});

describe('svc.links', () => {
  it('create() returns the link with its shareable URL; a taken short_link is SvcConflictError', async () => {
    route('post', '/api/v1/links', [
      () => ok({ data: link }),
      () => platformError(409, 'ConflictError', catalogue.linkShortLinkTaken.message),
    ]);
    expect((await client().links.create({ partner_id: 3, short_link: 'jane' })).data.url).toBe('https://shop.example/?aff=jane');
    const error = await client()
      .links.create({ partner_id: 3, short_link: 'jane' })
      .catch((e: unknown) => e as SvcError);
    expect(error).toBeInstanceOf(SvcConflictError);
    expect((error as SvcError).message).toBe('This short_link is already taken');
  });

  it('list() sends partner_id only when given', async () => {
    const seen = route('get', '/api/v1/links', [() => ok({ data: { links: [link] } })]);
    await client().links.list();
    await client().links.list({ partner_id: 3 });
    expect(seen.map((s) => s.url.search)).toEqual(['', '?partner_id=3']);
  });

  it('update() patches the link named by its short_link (escaped in the path)', async () => {
    const seen = route('patch', '/api/v1/links/:short', [() => ok({ data: { ...link, enabled: false } })]);
    const result = await client().links.update('jane', { enabled: false });
    expect(result.data.enabled).toBe(false);
    expect(seen[0]).toMatchObject({ body: { enabled: false } });
    expect(seen[0]!.url.pathname).toBe('/api/v1/links/jane');
  });
});
