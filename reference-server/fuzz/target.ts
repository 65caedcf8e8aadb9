import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app';
import { openStore, uniqueSchemaName, type Store } from '../src/store/db';
import { createControlClient, type ControlClient } from '../src/testing/control-client';

/** What a fuzz case can point at: two programs with their records, and every kind of credential. */
export interface Fixtures {
  programs: { id: number; key: string; accountId: number }[];
  shortLinks: string[];
  clickIds: string[];
  customerKeys: string[];
  transactionIds: string[];
  dashboardCookies: string[];
  loginToken: string;
  loginStates: string[];
}

export interface Snapshot {
  rows: Record<string, number>;
  records: string;
}

export interface FuzzTarget {
  app: FastifyInstance;
  store: Store;
  control: ControlClient;
  fixtures: Fixtures;
  inject(request: { method: string; url: string; headers: Record<string, string>; payload?: string }): Promise<LightMyRequestResponse>;
  /** Row counts of every table plus the records of both programs: what "nothing recorded" is checked against. */
  snapshot(): Promise<Snapshot>;
  /** Keeps the credentials usable after a case that legitimately replaced them (sign-out, key regeneration). */
  refresh(template: string, status: number, body: string): Promise<void>;
  close(): Promise<void>;
}

/** The server under fuzz: in process (through `app.inject`), on `DATABASE_URL` or SQLite in memory. */
export async function createFuzzTarget(databaseUrl = process.env.DATABASE_URL ?? 'sqlite::memory:'): Promise<FuzzTarget> {
  const store = await openStore(databaseUrl, { pgSchema: uniqueSchemaName('svc_fuzz'), dropSchemaOnClose: true });
  // Connect with Stripe configured, so its routes answer as in production; no fuzz case holds a valid state, so
  // nothing is ever sent to this address (nothing listens on port 9).
  const app = buildApp({
    store,
    testControl: true,
    stripeConnect: { clientId: 'ca_fuzz', secretKey: 'sk_test_fuzz', connectUrl: 'http://127.0.0.1:9' },
  });
  await app.ready();
  const inject: FuzzTarget['inject'] = (request) =>
    app.inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.payload === undefined ? {} : { payload: request.payload }),
    });
  const injectFetch: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    const res = await inject({
      method: req.method,
      url: u.pathname + u.search,
      headers: Object.fromEntries(req.headers),
      ...(req.body ? { payload: await req.text() } : {}),
    });
    return new Response(res.statusCode === 204 ? null : res.body, {
      status: res.statusCode,
      headers: { 'content-type': String(res.headers['content-type'] ?? '') },
    });
  };
  const control = createControlClient('http://fuzz.local', injectFetch);
  const fixtures = await createFixtures(control, inject);
  const tables = await tableNames(store);

  return {
    app,
    store,
    control,
    fixtures,
    inject,
    async snapshot() {
      const rows: Record<string, number> = {};
      // One round trip for every table: the fuzzer takes a snapshot per case.
      const union = sql.join(
        tables.map((t) => sql`select ${t} as name, count(*) as n from ${sql.id(t)}`),
        sql` union all `,
      );
      const result = await sql<{ name: string; n: number | string }>`${union}`.execute(store.db);
      for (const row of result.rows) rows[row.name] = Number(row.n);
      const records = await Promise.all(fixtures.programs.map((p) => control.records(p.id)));
      return { rows, records: JSON.stringify(records) };
    },
    async refresh(template, status, body) {
      if (template === '/auth/sign-out' && status === 303) {
        fixtures.dashboardCookies = await Promise.all(
          fixtures.programs.map(async (p) => (await control.createDashboardSession(p.accountId)).cookie),
        );
      }
      if (template.endsWith('/regenerate-key') && status === 200) {
        const { id, api_token } = (JSON.parse(body) as { data: { program: { id: number; api_token: string } } }).data.program;
        const program = fixtures.programs.find((p) => p.id === id);
        if (program) program.key = api_token;
      }
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

async function tableNames(store: Store): Promise<string[]> {
  const tables = await store.db.introspection.getTables();
  const schema =
    store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]?.s : undefined;
  return (
    tables
      // webhook_attempts is the outbound dispatcher's log: it grows on its own timer, for deliveries queued by earlier
      // accepted cases (outbound/dispatcher.ts), whatever the request being checked did.
      .filter((t) => !t.isView && !t.name.startsWith('kysely_') && t.name !== 'webhook_attempts')
      .filter((t) => schema === undefined || t.schema === schema)
      .map((t) => t.name)
  );
}

async function createFixtures(control: ControlClient, inject: FuzzTarget['inject']): Promise<Fixtures> {
  const call = async (method: string, url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify(body) });
    if (res.statusCode >= 300) throw new Error(`fixture ${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return JSON.parse(res.body) as Record<string, any>;
  };
  const fixtures: Fixtures = {
    programs: [],
    shortLinks: [],
    clickIds: [],
    customerKeys: [],
    transactionIds: [],
    dashboardCookies: [],
    loginToken: '',
    loginStates: [],
  };
  for (const [index, name] of ['a', 'b'].entries()) {
    const program = await control.createProgram({
      name: `fuzz ${name}`,
      domain: `${name}.example.com`,
      allowed_origins: ['https://shop.example.com'],
    });
    fixtures.programs.push({ id: program.id, key: program.api_token, accountId: program.account_id });
    const partner = await control.createPartner({ program_id: program.id });
    const link = await control.createLink({ program_id: program.id, partner_id: partner.id, short_link: `fuzz-${name}` });
    fixtures.shortLinks.push(link.short_link);
    // The program lists its origins, so a browser-mode call must name one (spec/openapi.yaml, TrackingForbidden).
    const click = await call(
      'POST',
      '/api/v1/track/click',
      { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` },
      { origin: 'https://shop.example.com' },
    );
    fixtures.clickIds.push(String(click.click_id));
    const customerKey = `fuzz-customer-${name}`;
    await call(
      'POST',
      '/api/v1/track/lead',
      { click_id: click.click_id, customer_key: customerKey },
      { authorization: `Bearer ${program.api_token}` },
    );
    fixtures.customerKeys.push(customerKey);
    const transactionId = `fuzz-txn-${name}`;
    await call(
      'POST',
      '/api/v1/track/sale',
      { transaction_id: transactionId, amount_cents: 1000 + index, customer_key: customerKey },
      { authorization: `Bearer ${program.api_token}` },
    );
    fixtures.transactionIds.push(transactionId);
    fixtures.dashboardCookies.push((await control.createDashboardSession(program.account_id)).cookie);
  }
  // A CLI login token through the real flow: start, callback with a signed id_token, first poll.
  const start = await call('POST', '/api/v1/cli/auth/start', {});
  const state = String(start.data.state);
  const { id_token } = await control.issueIdToken(fixtures.programs[0]!.accountId);
  await call('POST', '/api/v1/cli/auth/callback', { state, id_token });
  const poll = await inject({ method: 'GET', url: `/api/v1/cli/auth/poll?state=${encodeURIComponent(state)}`, headers: {} });
  fixtures.loginToken = String((JSON.parse(poll.body) as { data: { token: string } }).data.token);
  fixtures.loginStates.push(state, String((await call('POST', '/api/v1/cli/auth/start', {})).data.state));
  return fixtures;
}
