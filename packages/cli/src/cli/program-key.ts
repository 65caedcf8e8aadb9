import { UsageError } from './failures';

/** `--api-key`, else `SVC_API_KEY`: `status` and `test` need a program key (spec/rules.md "Authentication"). */
export function programKey(flag: string | undefined, env: Record<string, string | undefined>, command: string): string {
  const key = flag?.trim() || env.SVC_API_KEY?.trim();
  if (!key) {
    throw new UsageError('A program key is required: pass --api-key <key> or set SVC_API_KEY (svc init prints it once).', command);
  }
  return key;
}

export const programKeyHint =
  'Check the program key (--api-key or SVC_API_KEY). A workspace owner can regenerate it in the dashboard program settings.';
