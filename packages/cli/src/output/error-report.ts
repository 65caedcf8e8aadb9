import { errorPage, SvcApiError, SvcError, SvcNetworkError, SvcRotationRequiredError, SvcTimeoutError } from '@svc/server';
import { errorHints } from '@svc/types';
import { CommandFailure } from '../cli/failures';
import type { Output } from './output';
import { printable } from './printable';
import { waitTime } from './wait-time';

/** What a failed command reports: the human lines (stderr) and the `--json` document (stdout). */
export interface ErrorReport {
  message: string;
  status?: number;
  /** `error.code`, else `error.details.code` (`ACCOUNT_BLOCKED`, spec/rules.md "Authentication" rule 4). */
  code?: string;
  requestId?: string;
  /** What to do about it. */
  hint?: string;
  /** The code's page on the docs site (`<base URL>/docs/errors/<code>`). */
  docsUrl?: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
}

export interface ReportContext {
  baseUrl: string;
  /** Advice for a 401 on this command (program key or login token). */
  unauthorizedHint?: string;
}

/** spec/rules.md "Errors", "Client guidance": read `error.code` first, fall back to the message. */
export function describeError(error: unknown, context: ReportContext): ErrorReport | undefined {
  if (error instanceof CommandFailure) {
    return {
      message: error.message,
      code: error.code,
      docsUrl: errorPage(context.baseUrl, error.code),
      ...(error.hint ? { hint: error.hint } : {}),
      ...(error.requestId ? { requestId: error.requestId } : {}),
    };
  }
  if (error instanceof SvcApiError) return describeApiError(error, context);
  if (error instanceof SvcNetworkError || error instanceof SvcTimeoutError) {
    return {
      message: error.message,
      // `network_error` or `timeout`: no answer came, so the code is the SDK's (the README's promise to --json).
      code: error.code,
      requestId: error.requestId,
      ...(error.docsUrl ? { docsUrl: error.docsUrl } : {}),
      hint: `Could not reach ${context.baseUrl}. Is the service running there? Set --base-url or SVC_BASE_URL to point elsewhere.`,
    };
  }
  if (error instanceof SvcError) return { message: error.message, requestId: error.requestId };
  return undefined;
}

function describeApiError(error: SvcApiError, context: ReportContext): ErrorReport {
  const detailsCode = typeof error.details.code === 'string' ? error.details.code : undefined;
  const code = error.code ?? detailsCode;
  const report: ErrorReport = {
    message: error.message,
    status: error.status,
    requestId: error.requestId,
    ...(code ? { code } : {}),
    ...(error.docsUrl ? { docsUrl: error.docsUrl } : {}),
    ...(Object.keys(error.details).length ? { details: error.details } : {}),
    ...(error.retryAfter !== undefined ? { retryAfterSeconds: Math.ceil(error.retryAfter) } : {}),
  };
  const hint = hintFor(error, detailsCode, context);
  return hint ? { ...report, hint } : report;
}

function hintFor(error: SvcApiError, detailsCode: string | undefined, context: ReportContext): string | undefined {
  if (detailsCode === 'ACCOUNT_BLOCKED') {
    return 'Your account is suspended; signing in again will not help. Contact support and quote the request id.';
  }
  // The SDK's hint, else the one every code has (`errorHints`: 404, 409 and the rest).
  const sdkHint = error.hint ?? errorHints[error.code];
  if (error instanceof SvcRotationRequiredError) return sdkHint;
  if (error.status === 429) {
    return `Rate limited: wait ${waitTime(error.retryAfter ?? 60, new Date())}, then run the command again.`;
  }
  if (error.status === 401) return context.unauthorizedHint ?? sdkHint;
  if (error.status >= 500) {
    return 'The service failed. Run the command again in a moment; if it keeps failing, contact support with the request id.';
  }
  return sdkHint;
}

/** Prints a report: message, `error.code` and request id on stderr; the error document on stdout with `--json`. */
export function printError(output: Output, report: ErrorReport, extra: Record<string, unknown> = {}): void {
  const c = output.err;
  // Errors not made by the client (a failed fetch's cause, a command's own failure) are cleaned here too.
  output.note(`${c.red(c.bold('Error:'))} ${printable(report.message)}`);
  if (report.status !== undefined) output.note(`  ${c.dim('status:')}     ${report.status}`);
  if (report.code !== undefined) output.note(`  ${c.dim('code:')}       ${printable(report.code)}`);
  if (report.requestId !== undefined) output.note(`  ${c.dim('request id:')} ${printable(report.requestId)}`);
  if (report.hint) output.note(`  ${printable(report.hint)}`);
  if (report.docsUrl) output.note(`  ${c.dim('docs:')}       ${printable(report.docsUrl)}`);
  output.document({
    ok: false,
    error: {
      message: report.message,
      status: report.status ?? null,
      code: report.code ?? null,
      request_id: report.requestId ?? null,
      ...(report.details ? { details: report.details } : {}),
      ...(report.retryAfterSeconds !== undefined ? { retry_after_seconds: report.retryAfterSeconds } : {}),
      ...(report.hint ? { hint: report.hint } : {}),
      ...(report.docsUrl ? { docs_url: report.docsUrl } : {}),
    },
    ...extra,
  });
}
