import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandFailure } from '../cli/failures';
import { loginTokenFor, readConfig, saveLogin } from './config-file';
import { configDir, configPath } from './paths';

const login = (token: string) => ({
  token,
  token_expires_at: '2030-01-01T00:00:00.000Z',
  account_id: 1,
  email: 'ada@example.com',
  signed_in_at: '2029-12-01T00:00:00.000Z',
});

describe('config location', () => {
  it('prefers SVC_CONFIG_DIR, then XDG_CONFIG_HOME/svc, then ~/.config/svc', () => {
    expect(configDir({ SVC_CONFIG_DIR: '/x/svc-test', XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe('/x/svc-test');
    expect(configDir({ XDG_CONFIG_HOME: '/xdg' }, '/home/u')).toBe('/xdg/svc');
    expect(configDir({ XDG_CONFIG_HOME: '' }, '/home/u')).toBe('/home/u/.config/svc');
    expect(configPath({}, '/home/u')).toBe('/home/u/.config/svc/config.json');
  });
});

describe('config file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-cli-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the login token readable only by the user (file 0600, new directory 0700)', async () => {
    const path = join(dir, 'nested', 'svc', 'config.json');
    await saveLogin(path, 'http://a.test', login('svc_login_a'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested', 'svc'))).mode & 0o777).toBe(0o700);
    expect(await loginTokenFor(path, 'http://a.test')).toBe('svc_login_a');
  });

  it('narrows an existing loose directory (0777) to 0700 when it writes', async () => {
    const loose = join(dir, 'loose');
    await mkdir(loose, { mode: 0o777 });
    await chmod(loose, 0o777);
    await saveLogin(join(loose, 'config.json'), 'http://svc.test', login('tok'));
    expect((await stat(loose)).mode & 0o777).toBe(0o700);
  });

  it('writes the temporary file exclusively: nothing planted is followed or overwritten', async () => {
    const path = join(dir, 'config.json');
    await saveLogin(path, 'http://svc.test', login('first'));
    const leftovers = (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
    expect(leftovers).toEqual([]);
    // The name is unpredictable, so a planted file under the old fixed name is left alone and not written through.
    const planted = join(dir, `config.json.${process.pid}.tmp`);
    await writeFile(planted, 'planted');
    await saveLogin(path, 'http://svc.test', login('second'));
    expect(await readFile(planted, 'utf8')).toBe('planted');
    expect(await loginTokenFor(path, 'http://svc.test')).toBe('second');
  });

  it('narrows an existing world-readable file to 0600 when it rewrites it', async () => {
    const path = join(dir, 'config.json');
    await writeFile(path, JSON.stringify({ logins: {} }));
    await chmod(path, 0o644);
    await saveLogin(path, 'http://a.test', login('svc_login_a'));
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it('keeps one login per base URL and replaces a login on the same one', async () => {
    const path = join(dir, 'config.json');
    await saveLogin(path, 'http://a.test', login('one'));
    await saveLogin(path, 'http://b.test', login('two'));
    await saveLogin(path, 'http://a.test', login('three'));
    expect(await loginTokenFor(path, 'http://a.test')).toBe('three');
    expect(await loginTokenFor(path, 'http://b.test')).toBe('two');
    expect(await loginTokenFor(path, 'http://c.test')).toBe('');
    expect(JSON.parse(await readFile(path, 'utf8')).logins['http://b.test'].email).toBe('ada@example.com');
  });

  it('reads a missing file as no logins and refuses a corrupt one with advice', async () => {
    expect(await readConfig(join(dir, 'absent.json'))).toEqual({ logins: {} });
    const path = join(dir, 'config.json');
    await writeFile(path, '{not json');
    await expect(readConfig(path)).rejects.toBeInstanceOf(CommandFailure);
    await expect(readConfig(path)).rejects.toMatchObject({ code: 'config_invalid', hint: 'Delete it and run svc login again.' });
  });
});
