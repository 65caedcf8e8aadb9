import { createHash } from 'node:crypto';
import { readConfig, writeConfig, type TestTrail } from '../../config/config-file';

/** What `svc test` remembers between runs, for one program on one service. */
export type Trail = Omit<TestTrail, 'key'>;

/** Names the program without storing its key: the first 16 hex digits of the key's SHA-256. */
export const keyId = (apiKey: string): string => createHash('sha256').update(apiKey).digest('hex').slice(0, 16);

/**
 * The trail of this program (key) on this service; empty for another key, or when the config file cannot be read
 * (a test event never fails for its memory).
 */
export async function readTrail(path: string, baseUrl: string, apiKey: string): Promise<Trail> {
  try {
    const { key, ...trail } = (await readConfig(path)).tests?.[baseUrl] ?? { key: '' };
    return key === keyId(apiKey) ? trail : {};
  } catch {
    return {};
  }
}

/** Replaces the trail of this service with this program's; best effort, like reading it. */
export async function saveTrail(path: string, baseUrl: string, apiKey: string, trail: Trail): Promise<void> {
  try {
    const config = await readConfig(path);
    await writeConfig(path, { ...config, tests: { ...config.tests, [baseUrl]: { key: keyId(apiKey), ...trail } } });
  } catch {
    // The next svc test lead or sale then starts a fresh test customer, as without a trail.
  }
}
