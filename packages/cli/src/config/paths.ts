import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's config directory: `SVC_CONFIG_DIR` (tests, several accounts), else `$XDG_CONFIG_HOME/svc`,
 * else `~/.config/svc` (the XDG default, also used on macOS and Windows for one predictable place).
 */
export function configDir(env: Record<string, string | undefined>, home: string = homedir()): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'svc');
}

export const configFileName = 'config.json';

export function configPath(env: Record<string, string | undefined>, home?: string): string {
  return join(configDir(env, home), configFileName);
}
