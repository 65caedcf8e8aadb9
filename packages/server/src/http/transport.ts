import type { SvcLogEvent } from '../logging/log';
import type { SvcWarning } from '../warnings/warnings';

/** The resolved client settings every call needs (client/options.ts resolves them). */
export interface Transport {
  baseUrl: string;
  apiKey: string | undefined;
  /** One deadline for all attempts of a call, in ms. */
  timeout: number;
  maxRetries: number;
  backoffMs: number;
  fetch: typeof fetch | undefined;
  onWarning: (warning: SvcWarning) => void;
  logger: ((event: SvcLogEvent) => void) | undefined;
}
