import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertValidResponse } from '../../src/testing/validate';
import { expectAcknowledgedKept, salesFixture, saleStream, untilAcknowledged } from '../faults/setup';
import { postgresUrl, privateDatabase, type PrivateDatabase } from './databases';
import { spawnServers, type ServerProcess } from './server-process';

// spec/rules.md "Scale out": four server processes on one PostgreSQL schema and one Redis, as behind a load balancer.
// CI sets both variables; the SQLite run of the suite has no shared store to scale out on, so it skips with the reason.
const redisUrl = process.env.REDIS_URL;
const skipReason = !postgresUrl ? 'DATABASE_URL does not name PostgreSQL' : !redisUrl ? 'REDIS_URL is not set' : undefined;
if (skipReason) console.warn(`scale-out tests skipped: ${skipReason} (CI sets DATABASE_URL=postgres://… and REDIS_URL=redis://…)`);

async function send(server: ServerProcess, method: string, path: string, body: unknown, key?: string) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assertValidResponse({ method, url: path, status: res.status, headers: Object.fromEntries(res.headers), body: text });
  return { status: res.status, headers: res.headers, body: JSON.parse(text) as Record<string, any> };
}

/** Waits for a fresh minute when the current one is nearly over, so a burst stays in one rate-limit window. */
async function awayFromWindowEdge(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 200));
}

describe.skipIf(skipReason)('four servers on one PostgreSQL and one Redis', () => {
  let db: PrivateDatabase;
  let servers: ServerProcess[] = [];
  const prefix = `svc:scale:${randomBytes(6).toString('hex')}:`;
  /** The i-th request's server: requests go round the four. */
  const next = (i: number) => servers[i % servers.length]!;

  beforeAll(async () => {
    db = privateDatabase('scale');
    // The sale limit raised for the crash test's stream; the clicks keep theirs (60 a minute), which one test counts.
    servers = await spawnServers(4, { databaseUrl: db.url, redisUrl, redisPrefix: prefix, env: { SVC_RATE_LIMITS: 'sale=1000000' } });
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await db?.dispose();
    const redis = new Redis(redisUrl!);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  async function attributedCustomer(server: ServerProcess) {
    const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
    const partner = await server.control.createPartner({ program_id: program.id });
    const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
    const click = await send(server, 'POST', '/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
    expect(click.status).toBe(200);
    const customerKey = `scale-${randomBytes(4).toString('hex')}`;
    const lead = await send(
      server,
      'POST',
      '/api/v1/track/lead',
      { click_id: click.body.click_id, customer_key: customerKey },
      program.api_token,
    );
    expect(lead.status).toBe(200);
    return { program, link, customerKey };
  }

  it('20 identical sales spread over the four servers record exactly one sale (19 × 409 naming it)', async () => {
    const { program, customerKey } = await attributedCustomer(servers[0]!);
    const sale = {
      transaction_id: `txn_scale_${randomBytes(6).toString('hex')}`,
      amount_cents: 4200,
      currency: 'USD',
      customer_key: customerKey,
    };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(next(i), 'POST', '/api/v1/track/sale', sale, program.api_token)),
    );
    const ok = answers.filter((r) => r.status === 200);
    const duplicates = answers.filter((r) => r.status === 409);
    expect(ok).toHaveLength(1);
    expect(duplicates).toHaveLength(19);
    const saleId = ok[0]!.body.sale_id as number;
    for (const d of duplicates) {
      expect(d.body.error).toMatchObject({ code: 'duplicate_transaction', details: { sale_id: saleId } });
    }
    // Every server sees the one sale and its one commission.
    for (const server of servers) {
      const records = await server.control.records(program.id);
      expect(records.sales.map((s) => s.processor_event_id)).toEqual([sale.transaction_id]);
      expect(records.commissions.filter((c) => c.sale_id === saleId)).toHaveLength(1);
    }
  });

  it("counts a client's clicks across the four servers: the 61st in a minute is refused by each", async () => {
    const a = servers[0]!;
    // The reset clears this Redis prefix's counters too: the setup clicks above do not count.
    await a.control.reset();
    const program = await a.control.createProgram({});
    const partner = await a.control.createPartner({ program_id: program.id });
    const link = await a.control.createLink({ program_id: program.id, partner_id: partner.id });
    await awayFromWindowEdge();
    const click = { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` };
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await send(next(i), 'POST', '/api/v1/track/click', click);
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    // One counter: the remaining count falls by one per click whichever server answered.
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    for (const server of servers) {
      const refused = await send(server, 'POST', '/api/v1/track/click', click);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: 'Too many requests.' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // Refused clicks recorded nothing (spec/rules.md "Rate-limit response").
    expect((await servers[1]!.control.records(program.id)).clicks).toHaveLength(60);
  });

  it('loses nothing acknowledged when one of the four is killed mid-stream; the other three go on', async () => {
    // The test above used up this minute's clicks; the reset clears the counters in Redis.
    await servers[0]!.control.reset();
    const fixture = await salesFixture(servers[0]!);
    const victimIndex = 3;
    const victim = servers[victimIndex]!;
    // Two loops per server; the victim's two end with its death.
    const stream = saleStream(servers, fixture, 8);
    await untilAcknowledged(stream, 40);
    victim.child.kill('SIGKILL');
    await victim.exited;
    const atKill = stream.acknowledged();
    // The survivors keep answering after the kill.
    await untilAcknowledged(stream, atKill + 20);
    await stream.stop();
    // The victim had acknowledged sales of its own before it died; each is kept like the survivors' ones.
    expect(stream.answers.filter((a) => a.server === victimIndex && a.status === 200).length).toBeGreaterThan(0);
    const withoutCommission = await expectAcknowledgedKept(servers[0]!.control, fixture, stream.answers);
    expect(withoutCommission).toEqual([]);
  }, 60_000);
});
