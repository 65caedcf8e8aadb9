import { createServer } from 'node:net';
import { errorHints } from '@svc/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePerFile, type UserEnv } from './fixture';

const t = fixturePerFile();
let env: UserEnv;
beforeAll(async () => {
  env = await t.f.newUser();
});

describe('svc partners and svc links (spawned binary, reference server)', () => {
  it('adds a partner, creates a link printing the full URL, lists both, and disables the link', async () => {
    const program = await t.f.server.control.createProgram({ domain: 'acme.example' });
    const key = { ...env, SVC_API_KEY: program.api_token };

    const status = await t.f.svc(['status'], key);
    expect(status.stdout).toContain("in the dashboard's Partners section");
    expect(status.stdout).toContain('svc links create --partner <id>');

    const added = await t.f.svc(['partners', 'add', '--name', 'Jane Doe', '--email', 'jane@example.com', '--json'], key);
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({ ok: true, partner: { name: 'Jane Doe', email: 'jane@example.com', status: 'active' } });
    const partnerId = added.json.partner.id as number;

    const human = await t.f.svc(['links', 'create', '--partner', String(partnerId), '--short-link', 'jane'], key);
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('https://acme.example/?aff=jane');
    const generated = await t.f.svc(['links', 'create', '--partner', String(partnerId), '--json'], key);
    expect(generated.json.link.url).toMatch(/^https:\/\/acme\.example\/\?aff=[A-Za-z0-9_-]{8}$/);
    const taken = await t.f.svc(['links', 'create', '--partner', String(partnerId), '--short-link', 'jane', '--json'], key);
    expect(taken.code).toBe(1);
    expect(taken.json.error).toMatchObject({ status: 409, message: 'This short_link is already taken', code: 'conflict' });
    expect(taken.json.error.hint).toContain(errorHints.conflict);

    const click = await fetch(`${t.f.server.url}/api/v1/track/click`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ affiliate_url: 'https://acme.example/?aff=jane' }),
    });
    expect(click.status).toBe(200);

    const partners = await t.f.svc(['partners', 'list'], key);
    expect(partners.stdout).toMatch(new RegExp(`${partnerId}\\s+Jane Doe\\s+jane@example.com\\s+active\\s+\\w+ [\\d.]+\\s+1/0/0`));
    const links = await t.f.svc(['links', 'list', '--partner', String(partnerId), '--json'], key);
    expect(links.json.links.map((l: { short_link: string }) => l.short_link)).toEqual(['jane', generated.json.link.short_link]);

    const off = await t.f.svc(['links', 'disable', 'jane'], key);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Referral link jane is off');
    const listed = await t.f.svc(['links', 'list'], key);
    expect(listed.stdout).toMatch(/jane\s+\d+\s+off\s+https:\/\/acme\.example\/\?aff=jane/);
  });

  it("refuses bad usage before sending anything, and reports the service's refusals", async () => {
    const program = await t.f.server.control.createProgram({});
    const key = { ...env, SVC_API_KEY: program.api_token };
    const noName = await t.f.svc(['partners', 'add'], key);
    expect(noName.code).toBe(2);
    expect(noName.stderr).toContain('--name is required');
    expect((await t.f.svc(['links', 'create', '--partner', 'jane'], key)).code).toBe(2);
    expect((await t.f.svc(['links', 'rename'], key)).code).toBe(2);
    expect((await t.f.svc(['partners', 'list'], env)).stderr).toContain('A program key is required');
    const unknown = await t.f.svc(['links', 'disable', 'nope', '--json'], key);
    expect(unknown.code).toBe(1);
    expect(unknown.json.error).toMatchObject({ status: 404, message: 'Referral link not found', code: 'not_found' });
    expect(unknown.json.error.hint).toContain(errorHints.not_found);
    const badEmail = await t.f.svc(['partners', 'add', '--name', 'X', '--email', 'nope'], key);
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain('email must be an email address, or null');
  });

  it('refuses an invalid --short-link locally: exit 2, and nothing is sent', async () => {
    const program = await t.f.server.control.createProgram({});
    const partner = await t.f.server.control.createPartner({ program_id: program.id });
    const key = { ...env, SVC_API_KEY: program.api_token };
    const args = ['links', 'create', '--partner', String(partner.id)];
    for (const bad of ['a b', 'ab', 'x'.repeat(65), 'ü-link', '']) {
      const run = await t.f.svc([...args, '--short-link', bad], key);
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain('--short-link must be 3 to 64 characters');
    }
    // Against a port nothing listens on, a request would fail with exit 1: exit 2 shows none was attempted.
    expect((await t.f.svc([...args, '--short-link', 'a b'], { ...key, SVC_BASE_URL: await deadUrl() })).code).toBe(2);
    expect((await t.f.svc(['links', 'list', '--json'], key)).json.links).toEqual([]);
  });

  it('--json on a network failure gives code network_error and a hint', async () => {
    const program = await t.f.server.control.createProgram({});
    const run = await t.f.svc(['links', 'list', '--json'], { ...env, SVC_API_KEY: program.api_token, SVC_BASE_URL: await deadUrl() });
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ code: 'network_error', status: null, hint: expect.stringContaining('Could not reach') });
  });
});

/** The address of a port that was free a moment ago and is closed now. */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}
