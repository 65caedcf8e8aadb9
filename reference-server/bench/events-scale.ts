import { openStore } from '../src/store/db';
import type { PrivateDatabase } from '../test/scale/databases';
import type { ServerProcess } from '../test/scale/server-process';
import { load, type LoadResult } from './load';
import { spawnBenchServer } from './processes';
import { seedEvents } from './seed-events';

export interface EventScaleBench {
  store: string;
  smallEvents: number;
  largeEvents: number;
  rows: { route: string; small: LoadResult; large: LoadResult }[];
}

interface Fixture {
  programId: number;
  key: string;
  cookie: string;
  partnerIds: number[];
}

const smallEvents = 10_000;

/** Dashboard and readiness latency with 10k events, then with `events` (default 1M): it must not grow. */
export async function benchEventScale(
  store: string,
  db: PrivateDatabase,
  options: { events: number; connections: number; seconds: number },
): Promise<EventScaleBench> {
  let server = await spawnBenchServer(db.url);
  let fixture: Fixture;
  try {
    fixture = await createFixture(server);
  } finally {
    await server.stop();
  }
  await seed(db.url, fixture, 0, smallEvents);
  server = await spawnBenchServer(db.url);
  let small: Map<string, LoadResult>;
  try {
    small = await measure(server, fixture, options);
  } finally {
    await server.stop();
  }
  const started = Date.now();
  await seed(db.url, fixture, smallEvents, options.events);
  console.log(`seeded ${options.events - smallEvents} more events in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  server = await spawnBenchServer(db.url);
  try {
    const large = await measure(server, fixture, options);
    return {
      store,
      smallEvents,
      largeEvents: options.events,
      rows: [...small].map(([route, result]) => ({ route, small: result, large: large.get(route)! })),
    };
  } finally {
    await server.stop();
  }
}

async function seed(url: string, fixture: Fixture, from: number, to: number): Promise<void> {
  const store = await openStore(url);
  try {
    await seedEvents(store, fixture.programId, fixture.partnerIds, from, to);
  } finally {
    await store.close();
  }
}

/** A program with 20 partners and real click, lead and sale through HTTP (so readiness is "ready"), and a session. */
async function createFixture(server: ServerProcess): Promise<Fixture> {
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  const partnerIds: number[] = [];
  for (let i = 0; i < 20; i++) partnerIds.push((await server.control.createPartner({ program_id: program.id, name: `Partner ${i}` })).id);
  const link = await server.control.createLink({ program_id: program.id, partner_id: partnerIds[0]! });
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
  await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: 'scale-customer' }, program.api_token);
  await post('/api/v1/track/sale', { transaction_id: 'scale-txn', amount_cents: 5000, customer_key: 'scale-customer' }, program.api_token);
  const { cookie } = await server.control.createDashboardSession(program.account_id);
  return { programId: program.id, key: program.api_token, cookie, partnerIds };
}

async function measure(
  server: ServerProcess,
  fixture: Fixture,
  options: { connections: number; seconds: number },
): Promise<Map<string, LoadResult>> {
  const id = fixture.programId;
  const session = { cookie: fixture.cookie };
  const routes: [string, { method: string; path: string; headers: Record<string, string>; body?: string }][] = [
    [
      'GET /api/v1/programs/me/readiness',
      { method: 'GET', path: '/api/v1/programs/me/readiness', headers: { authorization: `Bearer ${fixture.key}` } },
    ],
    ['GET /api/tracking/readiness/:id', { method: 'GET', path: `/api/tracking/readiness/${id}`, headers: session }],
    ['GET /api/tracking/status/:id', { method: 'GET', path: `/api/tracking/status/${id}`, headers: session }],
    ['GET /api/tracking/performance/:id', { method: 'GET', path: `/api/tracking/performance/${id}`, headers: session }],
    ['GET /api/tracking/performance/:id?days=90', { method: 'GET', path: `/api/tracking/performance/${id}?days=90`, headers: session }],
    ['GET /api/tracking/events/:id', { method: 'GET', path: `/api/tracking/events/${id}`, headers: session }],
    [
      'GET /api/tracking/events/:id?include_test=true',
      { method: 'GET', path: `/api/tracking/events/${id}?include_test=true`, headers: session },
    ],
    [
      'POST /api/tracking/check-test-events',
      {
        method: 'POST',
        path: '/api/tracking/check-test-events',
        headers: { ...session, 'content-type': 'application/json' },
        body: JSON.stringify({ program_id: id }),
      },
    ],
  ];
  const results = new Map<string, LoadResult>();
  // One short warm-up so the first route measured does not pay for JIT and cold caches.
  await load({
    name: 'warm-up',
    url: server.url,
    pid: server.child.pid!,
    seconds: 1,
    connections: options.connections,
    request: routes[0]![1],
  });
  for (const [name, request] of routes) {
    const result = await load({
      name,
      url: server.url,
      pid: server.child.pid!,
      seconds: options.seconds,
      connections: options.connections,
      request,
    });
    if (result.non2xx > 0) throw new Error(`${name} answered non-2xx ${JSON.stringify(result.statuses)}`);
    results.set(name, result);
  }
  return results;
}
