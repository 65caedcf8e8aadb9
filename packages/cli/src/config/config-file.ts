import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CommandFailure } from '../cli/failures';

/** One stored login (from the `complete` poll answer of `svc login`). */
export interface StoredLogin {
  token: string;
  token_expires_at: string;
  account_id: number;
  advertiser_id?: number;
  email: string;
  signed_in_at: string;
}

/**
 * The ids of one program's last test events on one service, so `svc test lead` joins the last `svc test click`
 * and `svc test sale` buys as the last `svc test lead`'s customer (commands/test/test-trail.ts).
 */
export interface TestTrail {
  /** Which program: the start of the program key's SHA-256 (the key itself is never stored). */
  key: string;
  click_id?: string;
  customer_key?: string;
}

/** Logins are kept per base URL: a login token is only valid on the service that issued it. Test trails too. */
export interface ConfigFile {
  logins: Record<string, StoredLogin>;
  tests?: Record<string, TestTrail>;
}

/** The token is a credential: only the user may read it (file 0600, directory 0700). */
export const fileMode = 0o600;
const dirMode = 0o700;

export async function readConfig(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { logins: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ConfigFile>;
    const record = <T>(value: T | undefined) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined);
    const tests = record(parsed.tests);
    return { logins: record(parsed.logins) ?? {}, ...(tests ? { tests } : {}) };
  } catch {
    throw new CommandFailure(`The config file ${path} is not valid JSON.`, 'config_invalid', 'Delete it and run svc login again.');
  }
}

/**
 * The config directory, private: created 0700, and an existing one narrowed to 0700 (`mkdir` leaves an existing
 * directory's mode alone, so a 0777 one let others swap the file). One we cannot narrow is refused.
 */
async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: dirMode });
  if (process.platform === 'win32') return;
  try {
    await chmod(dir, dirMode);
  } catch {
    // Not ours (e.g. SVC_CONFIG_DIR=/tmp): checked below.
  }
  if (((await stat(dir)).mode & 0o077) !== 0) {
    throw new CommandFailure(
      `The config directory ${dir} is readable or writable by other users and cannot be made private.`,
      'config_insecure',
      'Point SVC_CONFIG_DIR at a directory you own, or chmod 700 it.',
    );
  }
}

/**
 * Writes the whole file through a private temporary file and a rename, so a crash never leaves a half-written
 * file and the token is never readable by others, not even for a moment. The temporary file is created
 * exclusively (`wx`, O_EXCL) under an unpredictable name: a file or symlink planted there makes the write fail
 * instead of being followed.
 */
export async function writeConfig(path: string, config: ConfigFile): Promise<void> {
  await privateDirectory(dirname(path));
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  let created = false;
  try {
    await writeFile(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: fileMode, flag: 'wx' });
    created = true;
    // `mode` applies only when the file is created, and the umask may have narrowed it: set it explicitly.
    await chmod(temporary, fileMode);
    await rename(temporary, path);
  } catch (error) {
    // Never remove what someone else planted under that name.
    if (created) await rm(temporary, { force: true });
    throw error;
  }
}

export async function saveLogin(path: string, baseUrl: string, login: StoredLogin): Promise<void> {
  const config = await readConfig(path);
  await writeConfig(path, { ...config, logins: { ...config.logins, [baseUrl]: login } });
}

/** The stored login token for this service, or `''` (then the service answers its own "run svc login" 401). */
export async function loginTokenFor(path: string, baseUrl: string): Promise<string> {
  return (await readConfig(path)).logins[baseUrl]?.token ?? '';
}
