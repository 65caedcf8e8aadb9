import type { SvcLogEvent } from '../logging/log';
import type { Transport } from '../http/transport';
import { warnOnce, type SvcWarning } from '../warnings/warnings';

export interface SvcOptions {
  /**
   * The program API key. Default: `process.env.SVC_API_KEY` (where `process` exists; empty counts as unset). With
   * neither, the constructor throws; `''` makes a client without a program key (click, login, login-token calls).
   */
  apiKey?: string;
  /** The service's base address. Default: `process.env.SVC_BASE_URL`, else `http://127.0.0.1:8787` (the reference server's `pnpm start`). */
  baseUrl?: string;
  /** One deadline in ms for a whole call, every retry included. Default 30 000. */
  timeout?: number;
  /** Retries after the first attempt, where a retry is safe (see README, "Retries"). Default 2. */
  maxRetries?: number;
  /** First backoff step in ms; doubles per retry, with jitter, capped at 10 s. Default 500. */
  backoffMs?: number;
  /** A `fetch` to use instead of the global one (tests, proxies, instrumented clients). */
  fetch?: typeof fetch;
  /** Key-rotation notices. Default: one console warning per process. */
  onWarning?: (warning: SvcWarning) => void;
  /** Debug events for each attempt; the API key is redacted from them. */
  logger?: (event: SvcLogEvent) => void;
}

/**
 * Reads an environment variable where one exists (Node, Bun, Deno's `process`); edge runtimes have none, and Deno
 * without `--allow-env` throws `NotCapable` on the read: there, as on the edge, the default is simply absent.
 */
const env = (name: string): string | undefined => {
  try {
    return process.env[name];
  } catch {
    // No `process` (a ReferenceError), no `process.env`, or a denied read.
    return undefined;
  }
};

export function resolveOptions(options: SvcOptions): Transport {
  return {
    baseUrl: (options.baseUrl ?? env('SVC_BASE_URL') ?? 'http://127.0.0.1:8787').replace(/\/+$/, ''),
    apiKey: options.apiKey ?? (env('SVC_API_KEY') || undefined),
    timeout: options.timeout ?? 30_000,
    maxRetries: options.maxRetries ?? 2,
    backoffMs: options.backoffMs ?? 500,
    fetch: options.fetch,
    onWarning: options.onWarning ?? warnOnce,
    logger: options.logger,
  };
}
