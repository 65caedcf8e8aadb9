import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePerFile, type UserEnv } from './fixture';

const t = fixturePerFile();
let env: UserEnv;
beforeAll(async () => {
  env = await t.f.newUser();
});

const newProgram = async () => (await t.f.server.control.createProgram({})).api_token;

describe('svc status and svc test (spawned binary, reference server)', () => {
  it('shows the program, metrics and readiness with the key from --api-key or SVC_API_KEY', async () => {
    const key = await newProgram();
    const human = await t.f.svc(['status', '--api-key', key], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/\(id \d+, .+\): not started/);
    expect(human.stdout).toContain('0 clicks · 0 leads · 0 sales');
    expect(human.stdout).toContain('Next:');

    const json = await t.f.svc(['status', '--json'], { ...env, SVC_API_KEY: key });
    expect(json.code).toBe(0);
    expect(json.json).toMatchObject({
      ok: true,
      program: { api_token: expect.stringContaining('…') },
      metrics: { clicks: 0, leads: 0, sales: 0 },
      readiness: { ready: false, verdict: 'not_started', next_step: { code: expect.any(String) } },
    });
    expect(human.stdout).toContain(json.json.readiness.next_step.message);
  });

  it('sends each test event and says what to do next; click → lead → sale is one test customer', async () => {
    const key = await newProgram();
    const click = await t.f.svc(['test', 'click', '--api-key', key, '--json'], env);
    expect(click.code).toBe(0);
    expect(click.json).toMatchObject({
      ok: true,
      mode: 'single',
      events: [{ event_type: 'click', ok: true, click_id: expect.any(String) }],
    });
    const clickId: string = click.json.events[0].click_id;

    // The lead joins the click the last svc test click made (kept in the config file), as the Next line says.
    const lead = await t.f.svc(['test', 'lead', '--api-key', key], env);
    expect(lead.code).toBe(0);
    const customerKey = new RegExp(`✔ test lead \\(click_id ${clickId}, customer_key (test_cust_\\w+)\\)`).exec(lead.stdout)?.[1];
    expect(customerKey, lead.stdout).toBeDefined();
    expect(lead.stdout).toContain('svc test sale    record a test sale for this test customer');
    expect(t.f.proxy.seen).toContain('POST /api/v1/track/lead 200');

    // The sale is that customer's, attributed through the click to the program's test partner (test mode: no commission).
    const sale = await t.f.svc(['test', 'sale', '--api-key', key, '--json'], env);
    expect(sale.code).toBe(0);
    expect(sale.json.events[0]).toMatchObject({
      event_type: 'sale',
      ok: true,
      customer_key: customerKey,
      sale_id: expect.any(Number),
      transaction_id: expect.stringMatching(/^test_txn_/),
    });
    const stored = await t.f.server.store.db
      .selectFrom('sales')
      .selectAll()
      .where('id', '=', sale.json.events[0].sale_id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ is_test: 1, processor_event_id: sale.json.events[0].transaction_id });
    expect(stored.partner_id).not.toBeNull();
    expect(stored.customer_id).not.toBeNull();

    // A click takes one lead: the next svc test lead starts a new, unattributed test customer.
    const second = await t.f.svc(['test', 'lead', '--api-key', key, '--json'], env);
    expect(second.code).toBe(0);
    expect(second.json.events[0].click_id).toBeUndefined();
    expect(second.json.events[0].customer_key).not.toBe(customerKey);

    const chain = await t.f.svc(['test', 'chain', '--api-key', key], env);
    expect(chain.code).toBe(0);
    expect(chain.stdout).toMatch(/✔ test click[\s\S]*✔ test lead[\s\S]*✔ test sale/);
    expect(chain.stdout).toContain('9 synthetic chains left this hour.');
    expect(chain.stdout).toContain('never create commissions');

    // Test events are counted apart and never touch real metrics.
    const status = await t.f.svc(['status', '--api-key', key, '--json'], env);
    expect(status.json.readiness.test_events).toEqual({ click: 2, lead: 3, sale: 2 });
    expect(status.json.metrics).toMatchObject({ clicks: 0, leads: 0, sales: 0 });
  });

  it('the 11th chain in an hour is refused (429 rate_limited, exit 1)', async () => {
    const key = await newProgram();
    for (let run = 0; run < 10; run++) expect((await t.f.svc(['test', 'chain', '--api-key', key, '--json'], env)).code).toBe(0);
    const refused = await t.f.svc(['test', 'chain', '--api-key', key, '--json'], env);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many synthetic chains (max 10/program/hour).',
      retry_after_seconds: expect.any(Number),
      hint: expect.stringMatching(/^Rate limited: wait about (59|60) minutes \(until \d\d:\d\d\), then run the command again\.$/),
    });
  });

  it('a lead after a test click the service no longer knows says so, and forgets it', async () => {
    const key = await newProgram();
    const user = await t.f.newUser();
    const click = await t.f.svc(['test', 'click', '--api-key', key, '--json'], user);
    await t.f.server.store.db.deleteFrom('customers').where('click_id', '=', click.json.events[0].click_id).execute();
    const lead = await t.f.svc(['test', 'lead', '--api-key', key, '--json'], user);
    expect(lead.code).toBe(1);
    expect(lead.json.error).toMatchObject({ code: 'test_click_unusable', hint: 'Run svc test click again, then svc test lead.' });
    expect(lead.json.error.message).toContain('Customer not found');
    expect((await t.f.svc(['test', 'lead', '--api-key', key], user)).code).toBe(0);
  });

  it('suggests the command meant, and explains svc test in its help', async () => {
    const typo = await t.f.svc(['stauts'], env);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown command "stauts". Did you mean "status"?');
    const help = await t.f.svc(['test', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Events:\n {2}click .+\n {2}lead .+\n {2}sale .+\n {2}chain /);
    const login = await t.f.svc(['login', '--help'], env);
    expect(login.stdout).toContain('--no-browser');
    expect(login.stdout).not.toContain('(default: true)');
  });

  it('a chain step answering ok: false fails with test_event_failed (exit 1)', async () => {
    // No test-control fault can do this: an armed fault fails the whole chain with a 500, and only a step refused
    // by a tracking rule answers ok: false. So the program's test link (svc-test-<id>, reused by every test event)
    // is planted without a program, and the click step is refused (`Invalid referral link configuration`).
    const { id, api_token: key } = await t.f.server.control.createProgram({});
    const partner = await t.f.server.control.createPartner({ program_id: id, name: 'Broken' });
    await t.f.server.control.createLink({ program_id: null, partner_id: partner.id, short_link: `svc-test-${id}` });
    const json = await t.f.svc(['test', 'chain', '--api-key', key, '--json'], env);
    expect(json.code).toBe(1);
    expect(json.json).toMatchObject({
      ok: false,
      error: { code: 'test_event_failed', request_id: expect.any(String) },
      events: [{ event_type: 'click', ok: false }],
    });
    const human = await t.f.svc(['test', 'chain', '--api-key', key], env);
    expect(human.code).toBe(1);
    expect(human.stderr).toContain('The test click did not go through.');
    expect(human.stderr).toContain('code:       test_event_failed');
  });

  it('a wrong key fails with the service message (exit 1)', async () => {
    const status = await t.f.svc(['status', '--api-key', 'svc_live_wrong'], env);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/Error: .*API token/);
    expect(status.stderr).toContain('status:     401');
    expect(status.stderr).toMatch(/request id: \S+/);
    expect(status.stderr).toContain('regenerate it in the dashboard program settings');
    const test = await t.f.svc(['test', 'click', '--api-key', 'svc_live_wrong', '--json'], env);
    expect(test.code).toBe(1);
    expect(test.json.error.status).toBe(401);
  });

  it('shows a key-rotation warning once, keeps it in --json, and explains the retired key', async () => {
    const { id, api_token: key } = await t.f.server.control.createProgram({});
    const rotateBy = new Date(Date.now() + 7 * 86_400_000).toISOString();
    await t.f.server.control.markKeyRotation(id, { rotate_by: rotateBy });
    const run = await t.f.svc(['test', 'click', '--api-key', key, '--json'], env);
    expect(run.code).toBe(0);
    expect(run.json.warnings[0]).toMatchObject({ code: 'api_key_rotation_required', docs_url: expect.any(String) });
    expect(run.stderr.match(/Warning:/g)).toHaveLength(1);
    expect(run.stderr).toContain('Rotate it by');

    await t.f.server.control.clock({ advance_seconds: 8 * 86_400 });
    const retired = await t.f.svc(['status', '--api-key', key], env);
    expect(retired.code).toBe(1);
    expect(retired.stderr).toContain('code:       api_key_rotation_required');
    expect(retired.stderr).toMatch(/https?:\/\/\S+/);
  });
});
