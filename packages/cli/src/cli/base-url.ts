import { UsageError } from './failures';

/** The reference server of `pnpm start` (the same default as `@svc/server`). */
export const defaultBaseUrl = 'http://127.0.0.1:8787';

/** `--base-url`, else `SVC_BASE_URL`, else the default; an http(s) URL without trailing slashes. */
export function resolveBaseUrl(flag: string | undefined, env: Record<string, string | undefined>): string {
  const value = (flag ?? env.SVC_BASE_URL ?? defaultBaseUrl).trim() || defaultBaseUrl;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url must be an absolute http(s) URL, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--base-url must be an absolute http(s) URL, got "${value}".`);
  }
  return value.replace(/\/+$/, '');
}
