import { trackerQueueStub } from '@svc/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePerFile, type UserEnv } from './fixture';
import { startCli } from './run-cli';

const t = fixturePerFile();
let env: UserEnv;
beforeAll(async () => {
  env = await t.f.newUser();
  expect((await t.f.signIn(env, { email: 'owner@example.com' })).run.code).toBe(0);
});

const initArgs = (name: string) => [
  'init',
  '--name',
  name,
  '--domain',
  'acme.com',
  '--commission-type',
  'percent',
  '--commission-rate',
  '20',
];

describe('svc init and svc programs (spawned binary, reference server)', () => {
  it('creates a program from flags and prints the key once, the script tag and the SDK snippet', async () => {
    const run = await t.f.svc(initArgs('Acme Partners'), env);
    expect(run.code).toBe(0);
    const id = Number(run.stdout.match(/Created program Acme Partners \(id (\d+)\) for acme\.com\./)?.[1]);
    expect(id).toBeGreaterThan(0);
    const key = run.stdout.match(/^\s+(svc_\S+)$/m)?.[1];
    expect(key).toBeDefined();
    // The queue stub comes first, so a signup called before the tracker loads is kept, not a ReferenceError.
    expect(run.stdout).toContain(
      `  ${trackerQueueStub}\n  <script src="${env.SVC_BASE_URL}/js/svc-tracker.js" data-svc-program-id="${id}" async></script>`,
    );
    expect(run.stdout).toContain("import { Svc } from '@svc/server';");
    // Not on npm yet: the install line printed is the one that works (the tarballs of pnpm pack:all).
    expect(run.stdout).not.toContain('npm install @svc/server');
    expect(run.stdout).toContain('`pnpm pack:all` prints the npm install line');
    expect(run.stdout).toContain(`export SVC_API_KEY=${key}`);
    expect(run.stdout).toContain('svc test chain');
    expect(run.stdout).not.toContain('\u001b[');

    // The key works for the program-key routes.
    const status = await t.f.svc(['status', '--json', '--api-key', key as string], env);
    expect(status.code).toBe(0);
    expect(status.json.program.id).toBe(id);
  });

  it('--json gives one document with the program, its key and the next steps', async () => {
    const run = await t.f.svc([...initArgs('007'), '--commission-rate', '7.5', '--json'], env);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({
      ok: true,
      program: { name: '007', domain: 'acme.com', commission_type: 'percent', commission_rate: 7.5 },
      api_key: run.json.program.api_token,
      next_steps: {
        script_tag: `${trackerQueueStub}\n<script src="${env.SVC_BASE_URL}/js/svc-tracker.js" data-svc-program-id="${run.json.program.id}" async></script>`,
        server_snippet: expect.stringContaining('svc.track.sale('),
      },
    });
    expect(run.stderr).toBe('');
  });

  it('lists the programs with masked keys (human and --json)', async () => {
    const run = await t.f.svc(['programs', '--json'], env);
    expect(run.code).toBe(0);
    const names = run.json.programs.map((program: { name: string }) => program.name);
    expect(names).toEqual(expect.arrayContaining(['Acme Partners', '007']));
    for (const program of run.json.programs) {
      expect(program.role).toBe('owner');
      expect(program.api_token).toMatch(/…/);
    }
    const human = await t.f.svc(['programs'], env);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/ID\s+NAME\s+DOMAIN\s+COMMISSION\s+ROLE\s+KEY/);
    expect(human.stdout).toMatch(/Acme Partners\s+acme\.com\s+percent 20\s+owner/);
  });

  it('exits quietly when the reader closes stdout early (svc programs | head)', async () => {
    const running = startCli(['programs'], env);
    running.child.stdout?.destroy();
    const run = await running.done;
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
  });

  it('without a login, the service answers "run svc login" (exit 1) with the request id', async () => {
    const stranger = await t.f.newUser();
    const init = await t.f.svc(initArgs('Nope'), stranger);
    expect(init.code).toBe(1);
    expect(init.stderr).toContain('Error: Authentication required — run svc login first');
    expect(init.stderr).toContain('status:     401');
    expect(init.stderr).toMatch(/request id: [0-9a-f-]{36}/);
    expect(init.stderr).toMatch(/docs: +http:\S+\/docs\/errors\/invalid_key\n/);

    const list = await t.f.svc(['programs', '--json'], stranger);
    expect(list.code).toBe(1);
    expect(list.json).toEqual({
      ok: false,
      error: {
        message: 'Missing Authorization header. Run svc login first.',
        status: 401,
        code: 'invalid_key',
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        hint: expect.stringContaining('svc login'),
        docs_url: expect.stringMatching(/^http:.+\/docs\/errors\/invalid_key$/),
      },
    });
  });

  it('after an init 500, lists the programs before suggesting a retry', async () => {
    await t.f.server.control.armFault({ point: 'cli' });
    const fresh = await t.f.svc([...initArgs('Brand New'), '--json'], env);
    expect(fresh.code).toBe(1);
    expect(fresh.json.error).toMatchObject({
      status: 500,
      message: expect.stringMatching(/^Failed to create program \(request_id: \S+\)$/),
    });
    expect(fresh.json.error.request_id).toBe(fresh.json.error.message.match(/request_id: ([^)]+)\)/)[1]);
    expect(fresh.json.error.hint).toBe('No program named "Brand New" exists, so nothing was created: run the same svc init again.');
    expect(fresh.json.programs.map((p: { name: string }) => p.name)).not.toContain('Brand New');
    const order = t.f.proxy.seen.slice(-2);
    expect(order).toEqual(['POST /api/v1/cli/init 500', 'GET /api/v1/cli/programs 200']);

    await t.f.server.control.armFault({ point: 'cli' });
    const again = await t.f.svc(initArgs('Acme Partners'), env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('The program may still have been created. Your programs now:');
    expect(again.stderr).toContain('A program named "Acme Partners" exists (listed above)');
    expect(again.stderr.indexOf('Your programs now')).toBeLessThan(again.stderr.indexOf('Error: Failed to create program'));
  });
});
