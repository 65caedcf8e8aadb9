import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contractFetch } from '../testing/fetch';
import { findProgramById } from '../store/programs';
import { uniqueSchemaName, type OpenStoreOptions } from '../store/db';
import { demo } from './seed';
import { startDemo, type Demo } from './start-demo';
import { freePort } from './test-demo';

// `PORT=9101 pnpm start`, then `pnpm start` again on the default port, on one database: the demo program's links
// must follow the server's current address (no port is stored in the program), in each place that hands them out.
const dir = mkdtempSync(join(tmpdir(), 'svc-demo-port-'));
const postgres = process.env.DATABASE_URL?.startsWith('postgres');
const databaseUrl = postgres ? process.env.DATABASE_URL! : `sqlite:${join(dir, 'demo.sqlite')}`;
const schema = uniqueSchemaName('svc_demo_port');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The steps each start reported, with their durations (`pnpm start` prints them as `✓ <step> in <s> s`). */
const steps: [string, number][] = [];

async function start(port: number, last = false): Promise<Demo> {
  const storeOptions: OpenStoreOptions | undefined = postgres ? { pgSchema: schema, dropSchemaOnClose: last } : undefined;
  const onStep = (step: string, ms: number) => steps.push([step, ms]);
  return startDemo({ databaseUrl, host: '127.0.0.1', port, onStep, ...(storeOptions ? { storeOptions } : {}) });
}

async function signIn(running: Demo, email: string): Promise<string> {
  const form = await fetch(`${running.url}/auth/sign-in`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const response = await fetch(`${running.url}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.headers.get('set-cookie')!.split(';')[0]! },
    body: new URLSearchParams({ email, csrf }),
    redirect: 'manual',
  });
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

/** The demo link's URL as `svc links list` (program key), the dashboard (Copy) and the partner view hand it out. */
async function linkUrls(running: Demo): Promise<string[]> {
  const json = async (path: string, headers: Record<string, string>) => {
    const res = await contractFetch(`${running.url}${path}`, { headers });
    expect(res.status, path).toBe(200);
    return (await res.json()) as { data: any };
  };
  const api = await json('/api/v1/links', { authorization: `Bearer ${running.seeded.apiKey}` });
  const owner = await signIn(running, demo.email);
  const dashboard = await json(`/api/dashboard/programs/${running.seeded.programId}/links`, { cookie: owner });
  const partner = await json('/api/partner', { cookie: await signIn(running, demo.partnerEmail) });
  const pick = (links: { short_link: string; url: string }[]) => links.find((l) => l.short_link === demo.shortLink)!.url;
  return [pick(api.data.links), pick(dashboard.data.links), pick(partner.data.partners[0].links)];
}

describe('the demo on another port', () => {
  it('keeps its domain: links follow the current address after a start on another port and back', async () => {
    const [other, usual] = [await freePort(), await freePort()];
    const expected = (port: number) => `http://127.0.0.1:${port}/demo/store/?aff=${demo.shortLink}`;

    const first = await start(other);
    expect(steps.map(([step]) => step)).toEqual(['database opened and migrated', 'demo program seeded', `listening on ${first.url}`]);
    for (const [, ms] of steps) expect(ms).toBeGreaterThanOrEqual(0);
    expect(await linkUrls(first)).toEqual([expected(other), expected(other), expected(other)]);
    await first.close();

    const second = await start(usual, true);
    try {
      expect(await linkUrls(second)).toEqual([expected(usual), expected(usual), expected(usual)]);
      // No port, no host: the program's domain is the storefront's path on whichever server serves it.
      const program = await findProgramById(second.store.db, second.seeded.programId);
      expect(program?.domain).toBe('/demo/store');
    } finally {
      await second.close();
    }
  });
});
