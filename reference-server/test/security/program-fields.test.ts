import { catalogue } from '@svc/types';
import { describe, expect, it } from 'vitest';
import { harnessPerFile, type HarnessResponse } from '../harness';
import { loginToken } from '../cli/support';

// Security finding "dashboard routes have no limits and no length caps": one dashboard session stored 60 KB program
// names and `domain: "javascript:alert(1)//"`, and `POST /api/v1/cli/init` accepted the same. Both routes share the
// domain rules (Decisions on `CliInitRequest` and on `PATCH /api/dashboard/programs/{programId}`); a refusal is the
// platform envelope's 400 with the catalogue's words, and nothing is stored.
const t = harnessPerFile();

const valid = { name: 'Acme', domain: 'shop.example', commission_type: 'percent', commission_rate: 10 };
const label = (n: number) => 'a'.repeat(n);
/** A host name of exactly `length` characters made of 63-character labels (the last one shorter). */
const hostOf = (length: number) => {
  const labels: string[] = [];
  let left = length;
  while (left > 0) {
    const next = Math.min(63, left);
    labels.push(label(next));
    left -= next + 1;
  }
  const host = labels.join('.');
  expect(host.length).toBe(length);
  return host;
};

function expectRefused(res: HarnessResponse, message: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } });
}

/** The two routes that create a program, each for an account of its own (so neither nears its write limit). */
async function creators() {
  const token = await loginToken(t.h, (await t.h.control.createAccount()).account_id);
  const { cookie } = await t.h.control.createDashboardSession((await t.h.control.createAccount()).account_id);
  return [
    ['POST /api/v1/cli/init', (json: unknown) => t.h.request('POST', '/api/v1/cli/init', { json, key: token })],
    ['POST /api/dashboard/programs', (json: unknown) => t.h.request('POST', '/api/dashboard/programs', { json, headers: { cookie } })],
  ] as const;
}

const programCount = async () => (await t.h.store.db.selectFrom('programs').select('id').execute()).length;

describe('program name: at most 200 characters, on the CLI and in the dashboard', () => {
  it('refuses a longer name (the 60 KB one of the finding included) and stores nothing', async () => {
    for (const [route, create] of await creators()) {
      for (const name of ['n'.repeat(201), 'x'.repeat(60_000), `${'é'.repeat(200)}e`]) {
        expectRefused(await create({ ...valid, name }), catalogue.programNameInvalid.message);
      }
      expect(await programCount(), route).toBe(0);
    }
    expect(catalogue.programNameInvalid.message).toBe('name is required: 1 to 200 characters');
  });

  it('accepts 200 characters, counted as the spec counts them (an emoji is one), trimmed', async () => {
    for (const [route, create] of await creators()) {
      for (const name of ['n'.repeat(200), '🎯'.repeat(200), `  ${'m'.repeat(200)}  `]) {
        const res = await create({ ...valid, name });
        expect(res.status, `${route} ${res.text}`).toBe(201);
        expect(res.body.data.program.name).toBe(name.trim());
      }
    }
    expect(await programCount()).toBe(6);
  });

  it('keeps the spec message for a blank name', async () => {
    for (const [, create] of await creators()) expectRefused(await create({ ...valid, name: '   ' }), catalogue.initMissingFields.message);
  });
});

describe('program domain: a host name, an optional port, no scheme or path', () => {
  const refused = [
    'javascript:alert(1)//',
    'https://shop.example',
    '//shop.example',
    'shop.example/path',
    'shop.example/',
    'shop.example?aff=x',
    'shop.example#top',
    'user@shop.example',
    'shop example',
    '<script>alert(1)</script>',
    'shop_example.com',
    'bücher.example',
    '-shop.example',
    'shop-.example',
    '.shop.example',
    'shop..example',
    'shop.example.',
    `${label(64)}.example`,
    hostOf(254),
    `${hostOf(249)}:3000`,
    'shop.example:',
    'shop.example:0',
    'shop.example:65536',
    'shop.example:80:80',
    'shop.example:http',
    '[::1]:3000',
  ];
  const accepted = [
    'shop.example',
    'SHOP.Example',
    'localhost',
    'localhost:3000',
    'shop.example:65535',
    '127.0.0.1',
    'xn--bcher-kva.example',
    'a-b.c-d.example',
    `${label(63)}.example`,
    hostOf(253),
    `${hostOf(248)}:3000`,
  ];

  it('refuses every other value in the platform envelope and stores nothing', async () => {
    for (const [route, create] of await creators()) {
      for (const domain of refused) {
        const res = await create({ ...valid, domain });
        expect(res.body.error?.message, `${route} ${JSON.stringify(domain)}`).toBe(catalogue.programDomainInvalid.message);
        expectRefused(res, catalogue.programDomainInvalid.message);
      }
      expect(await programCount(), route).toBe(0);
    }
  });

  it('accepts host names with labels up to 63 characters, 253 in all, and a port; the shareable URL stays on that host', async () => {
    for (const [route, create] of await creators()) {
      for (const domain of accepted) {
        const res = await create({ ...valid, domain });
        expect(res.status, `${route} ${domain} ${res.text}`).toBe(201);
        expect(res.body.data.program.domain).toBe(domain);
      }
    }
    const { account_id } = await t.h.control.createAccount();
    const { cookie } = await t.h.control.createDashboardSession(account_id);
    const created = await t.h.request('POST', '/api/dashboard/programs', {
      json: { ...valid, domain: 'localhost:3000' },
      headers: { cookie },
    });
    const id = created.body.data.program.id;
    const partner = await t.h.request('POST', `/api/dashboard/programs/${id}/partners`, { json: { name: 'P' }, headers: { cookie } });
    const link = await t.h.request('POST', `/api/dashboard/programs/${id}/links`, {
      json: { partner_id: partner.body.data.id, short_link: 'port-link' },
      headers: { cookie },
    });
    expect(link.body.data.url).toBe('https://localhost:3000/?aff=port-link');
  });
});

describe('allowed origins: at most 100, each at most 261 characters', () => {
  async function program() {
    const created = await t.h.control.createProgram({ name: 'Acme', domain: 'shop.example' });
    const { cookie } = await t.h.control.createDashboardSession(created.account_id);
    const patch = (json: unknown) => t.h.request('PATCH', `/api/dashboard/programs/${created.id}`, { json, headers: { cookie } });
    const stored = async () =>
      (await t.h.request('GET', `/api/tracking/status/${created.id}`, { headers: { cookie } })).body.data.program.allowed_origins;
    return { patch, stored };
  }
  const origins = (n: number) => Array.from({ length: n }, (_, i) => `https://shop${i}.example`);

  it('refuses a longer list or a longer origin whole, and changes nothing', async () => {
    const { patch, stored } = await program();
    expect((await patch({ allowed_origins: ['https://kept.example'] })).status).toBe(200);
    for (const allowed_origins of [
      origins(101),
      [`https://${hostOf(254)}`],
      ['https://ok.example', `http://${hostOf(250)}:8080`],
      [`https://${'x'.repeat(60_000)}.example`],
    ]) {
      expectRefused(await patch({ allowed_origins, lead_auth: 'browser_allowed' }), catalogue.dashboardOriginsInvalid.message);
    }
    expect(await stored()).toEqual(['https://kept.example']);
  });

  it('accepts 100 origins and an origin of 261 characters', async () => {
    const { patch, stored } = await program();
    expect((await patch({ allowed_origins: origins(100) })).status).toBe(200);
    expect(await stored()).toHaveLength(100);
    const longest = `https://${hostOf(253)}`;
    expect(longest).toHaveLength(261);
    expect((await patch({ allowed_origins: [longest] })).status).toBe(200);
    expect(await stored()).toEqual([longest]);
  });
});

describe('partner name: 200 characters as the spec counts them', () => {
  it('accepts 200 emoji (400 UTF-16 units) and refuses 201', async () => {
    const created = await t.h.control.createProgram({ name: 'Acme', domain: 'shop.example' });
    const { cookie } = await t.h.control.createDashboardSession(created.account_id);
    const add = (name: string) =>
      t.h.request('POST', `/api/dashboard/programs/${created.id}/partners`, { json: { name }, headers: { cookie } });
    expect((await add('🎯'.repeat(200))).status).toBe(201);
    expectRefused(await add('🎯'.repeat(201)), catalogue.partnerNameInvalid.message);
  });
});
