import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginTokenFor, saveLogin } from '../../config/config-file';
import { keyId, readTrail, saveTrail } from './test-trail';

const key = 'svc_live_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
const otherKey = 'svc_live_bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';

describe('the test trail in the config file', () => {
  let dir: string;
  let path: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-trail-'));
    path = join(dir, 'svc', 'config.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('is kept per service and program, without the key', async () => {
    await saveTrail(path, 'http://a.test', key, { click_id: 'clk_1' });
    await saveTrail(path, 'http://b.test', key, { customer_key: 'test_cust_b' });
    expect(await readTrail(path, 'http://a.test', key)).toEqual({ click_id: 'clk_1' });
    expect(await readTrail(path, 'http://b.test', key)).toEqual({ customer_key: 'test_cust_b' });
    // Another program (key) on the same service does not continue this one's funnel.
    expect(await readTrail(path, 'http://a.test', otherKey)).toEqual({});
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain(key);
    expect(JSON.parse(text).tests['http://a.test']).toEqual({ key: keyId(key), click_id: 'clk_1' });
  });

  it('survives a login and keeps the logins', async () => {
    await saveLogin(path, 'http://a.test', { token: 'tok', token_expires_at: 'x', account_id: 1, email: 'a@b.c', signed_in_at: 'y' });
    await saveTrail(path, 'http://a.test', key, { click_id: 'clk_2' });
    await saveLogin(path, 'http://a.test', { token: 'tok2', token_expires_at: 'x', account_id: 1, email: 'a@b.c', signed_in_at: 'y' });
    expect(await loginTokenFor(path, 'http://a.test')).toBe('tok2');
    expect(await readTrail(path, 'http://a.test', key)).toEqual({ click_id: 'clk_2' });
  });

  it('is empty, and never fails the command, when the config file is corrupt', async () => {
    await saveTrail(path, 'http://a.test', key, { click_id: 'clk_3' });
    await writeFile(path, '{not json');
    expect(await readTrail(path, 'http://a.test', key)).toEqual({});
    await expect(saveTrail(path, 'http://a.test', key, { click_id: 'clk_4' })).resolves.toBeUndefined();
  });
});
