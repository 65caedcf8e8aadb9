import type { Warning } from '@svc/types';

/** A key-rotation notice (spec/rules.md "Authentication" rule 5): the body's `warnings` and the response headers. */
export interface SvcWarning {
  /** The top-level `warnings` of the body (may be empty when only headers were sent). */
  warnings: Warning[];
  /** `Deprecation` header: `@<unix seconds>` of when the key was marked (RFC 9745). */
  deprecation: string | undefined;
  /** `Sunset` header: HTTP-date of the rotation deadline (RFC 8594). */
  sunset: string | undefined;
  /** `Link` header pointing at the rotation docs (`rel="deprecation"`). */
  link: string | undefined;
  requestId: string;
}

export function readWarning(body: unknown, headers: Headers, requestId: string): SvcWarning | undefined {
  const listed = (body as { warnings?: unknown } | null)?.warnings;
  const warning: SvcWarning = {
    warnings: Array.isArray(listed) ? (listed as SvcWarning['warnings']) : [],
    deprecation: headers.get('deprecation') ?? undefined,
    sunset: headers.get('sunset') ?? undefined,
    link: headers.get('link') ?? undefined,
    requestId,
  };
  return warning.warnings.length || warning.deprecation || warning.sunset ? warning : undefined;
}

let warned = false;

/** The default `onWarning`: one clear console warning per process, not one per request. */
export function warnOnce(warning: SvcWarning): void {
  if (warned) return;
  warned = true;
  const first = warning.warnings[0];
  console.warn(
    `[svc] This API key must be rotated by ${first?.rotate_by ?? warning.sunset}; after that every request with it fails. ` +
      `${first?.hint ?? 'Use the new key from the dashboard program settings.'} ${first?.docs_url ?? warning.link ?? ''}`.trim(),
  );
}
