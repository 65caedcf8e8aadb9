import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { shop } from './support';

// The webhook-endpoint routes of the dashboard (spec/openapi.yaml, tag `outbound-webhooks`): what a member can do,
// what is refused (platform envelope), and that nobody else can touch a program's endpoints.
const t = harnessPerFile();

describe('webhook endpoints in the dashboard API', () => {
  it('adds an endpoint (201) with every event type by default and a whsec_ secret of 24 random bytes, shown only then', async () => {
    const s = await shop(t.h);
    const created = await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/svc?source=svc' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(Number),
      url: 'https://hooks.example.com/svc?source=svc',
      events: [
        'lead.created',
        'sale.created',
        'commission.created',
        'commission.updated',
        'sale.refunded',
        'payout.created',
        'risk.flagged',
      ],
      enabled: true,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      created_at: expect.any(String),
    });
    const secret: string = created.body.data.secret;
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

    const list = await s.call('GET', '/webhook-endpoints');
    expect(list.status).toBe(200);
    const { secret: _secret, ...shown } = created.body.data;
    expect(list.body.data).toEqual([{ ...shown, secret_hint: `whsec_…${secret.slice(-4)}`, recent_deliveries: [] }]);
    expect(list.text).not.toContain(secret.slice('whsec_'.length, -4));

    // Every endpoint gets its own secret.
    const second = await s.call('POST', '/webhook-endpoints', {
      url: 'http://hooks.example.com/other',
      events: ['sale.refunded', 'sale.created'],
    });
    expect(second.body.data.events).toEqual(['sale.created', 'sale.refunded']);
    expect(second.body.data.secret).not.toBe(secret);
    expect((await s.call('GET', '/webhook-endpoints')).body.data.map((e: { id: number }) => e.id)).toEqual([
      created.body.data.id,
      second.body.data.id,
    ]);
  });

  it('refuses a URL that is not absolute http(s) with 400 in the platform envelope, and records nothing', async () => {
    const s = await shop(t.h);
    const message = 'url must be an absolute http:// or https:// URL of at most 2048 characters, without user name or password';
    const bad = [
      'ftp://hooks.example.com/svc',
      'javascript:alert(1)',
      'file:///etc/passwd',
      '/relative/path',
      'hooks.example.com/svc',
      'https://user:pass@hooks.example.com/svc',
      `https://hooks.example.com/${'a'.repeat(2048)}`,
      42,
      null,
    ];
    for (const url of bad) {
      const res = await s.call('POST', '/webhook-endpoints', { url });
      expect(res.status, String(url)).toBe(400);
      expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } });
    }
    expect((await s.call('POST', '/webhook-endpoints', {})).body.error.message).toBe(message);
    expect((await s.call('GET', '/webhook-endpoints')).body.data).toEqual([]);
  });

  it('refuses unknown, repeated or no event types, and an eleventh endpoint', async () => {
    const s = await shop(t.h);
    const message =
      'events must be a non-empty list, without repeats, of: lead.created, sale.created, commission.created, commission.updated, sale.refunded, payout.created, risk.flagged';
    for (const events of [[], ['click.created'], ['sale.created', 'sale.created'], 'sale.created', [1]]) {
      const res = await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/svc', events });
      expect(res.status, JSON.stringify(events)).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    for (let i = 0; i < 10; i++)
      expect((await s.call('POST', '/webhook-endpoints', { url: `https://hooks.example.com/${i}` })).status).toBe(201);
    const eleventh = await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/11' });
    expect(eleventh.status).toBe(400);
    expect(eleventh.body.error.message).toBe('A program has at most 10 webhook endpoints');
  });

  it('holds the cap under 15 simultaneous creations: exactly 10 created, 5 refused', async () => {
    const s = await shop(t.h);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => s.call('POST', '/webhook-endpoints', { url: `https://hooks.example.com/${i}` })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 400).map((a) => a.body.error.message)).toEqual(
      Array(5).fill('A program has at most 10 webhook endpoints'),
    );
    expect((await s.call('GET', '/webhook-endpoints')).body.data).toHaveLength(10);
  });

  it('pauses, resumes and removes (204); unknown ids answer 404 and malformed ones 400', async () => {
    const s = await shop(t.h);
    const { id } = (await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/svc' })).body.data;
    expect((await s.call('PATCH', `/webhook-endpoints/${id}`, { enabled: 'no' })).body.error.message).toBe(
      'enabled is required and must be true or false',
    );
    const paused = await s.call('PATCH', `/webhook-endpoints/${id}`, { enabled: false });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id, enabled: false, secret_hint: expect.stringMatching(/^whsec_…/) });
    expect(paused.body.data.secret).toBeUndefined();

    const removed = await s.call('DELETE', `/webhook-endpoints/${id}`);
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    for (const [method, path] of [
      ['DELETE', `/webhook-endpoints/${id}`],
      ['PATCH', `/webhook-endpoints/${id}`],
      ['POST', `/webhook-endpoints/${id}/test`],
    ] as const) {
      const res = await s.call(method, path, method === 'PATCH' ? { enabled: true } : undefined);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.error.message).toBe('Webhook endpoint not found');
    }
    const malformed = await s.call('DELETE', '/webhook-endpoints/abc');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toBe('endpointId must be a positive integer');
  });
});

describe('who may manage a program endpoints', () => {
  it('any active member may; another program member gets the dashboard 403 on every route, and its endpoints stay as they were', async () => {
    const s = await shop(t.h);
    const other = await shop(t.h);
    const { id } = (await s.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/svc' })).body.data;

    // A member (not an owner) of the program manages its endpoints like the owner.
    const { account_id } = await t.h.control.createAccount({ email: 'member@example.com' });
    await t.h.control.addMembership({ account_id, program_id: s.program.id, role: 'member' });
    const member = (await t.h.control.createDashboardSession(account_id)).cookie;
    expect((await s.call('GET', '/webhook-endpoints', undefined, member)).body.data).toHaveLength(1);
    expect((await s.call('POST', `/webhook-endpoints/${id}/test`, undefined, member)).status).toBe(202);

    const forbidden = {
      data: null,
      error: { status: 403, name: 'ForbiddenError', message: "You are not a member of this program's workspace", details: {} },
    };
    const attempts: [string, string, unknown][] = [
      ['POST', '/webhook-endpoints', { url: 'https://evil.example/hook' }],
      ['GET', '/webhook-endpoints', undefined],
      ['PATCH', `/webhook-endpoints/${id}`, { enabled: false }],
      ['POST', `/webhook-endpoints/${id}/test`, undefined],
      ['DELETE', `/webhook-endpoints/${id}`, undefined],
    ];
    for (const [method, path, json] of attempts) {
      const res = await s.call(method, path, json, other.cookie);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual(forbidden);
    }
    // An endpoint id of another program, through the other member's own program: not found there.
    expect((await other.call('DELETE', `/webhook-endpoints/${id}`)).status).toBe(404);
    // A program id that names no program answers the same 403.
    const unknown = await t.h.request('GET', '/api/dashboard/programs/999999/webhook-endpoints', { headers: { cookie: other.cookie } });
    expect(unknown.body).toEqual(forbidden);

    const [endpoint] = (await s.call('GET', '/webhook-endpoints')).body.data;
    expect(endpoint).toMatchObject({ id, enabled: true });
    expect((await s.call('GET', '/webhook-endpoints')).body.data).toHaveLength(1);
  });

  it('without a session every route answers 401, and a program key is no credential here', async () => {
    const s = await shop(t.h);
    const noSession = await t.h.request('GET', `${s.base}/webhook-endpoints`);
    expect(noSession.status).toBe(401);
    const withKey = await t.h.request('POST', `${s.base}/webhook-endpoints`, {
      key: s.key,
      json: { url: 'https://hooks.example.com/svc' },
    });
    expect(withKey.status).toBe(401);
    expect(withKey.body.error.message).toBe('Sign in to the dashboard first');
    expect((await s.call('GET', '/webhook-endpoints')).body.data).toEqual([]);
  });
});
