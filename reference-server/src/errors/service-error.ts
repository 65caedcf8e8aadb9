import {
  catalogue,
  type CatalogueEntry,
  type CliFailure,
  type Envelope,
  type FixedCatalogueKey,
  type KnownErrorCode,
  type TemplateArgs,
  type TemplatedCatalogueKey,
} from '@svc/types';

export interface ServiceErrorOptions {
  /** Names the field or record in a test-control refusal (spec tag `test-control`); every other message is the entry's. */
  message?: string;
  /** `error.details` of the platform envelope. */
  details?: Record<string, unknown>;
  /** Extra members of the typed envelope's `error` (hint, docs_url, retry_after_seconds, status). */
  extra?: Record<string, unknown>;
  /** Extra top-level members of the typed envelope (the click 410 keeps `success` and `message`). */
  topLevel?: Record<string, unknown>;
  headers?: Record<string, string | number>;
  cause?: unknown;
}

/**
 * The one error type of the server: a catalogue entry plus what varies per request. Thrown anywhere
 * (routes, auth, domain), turned into the spec's envelope in one place (http/envelope.ts).
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly envelope: Envelope;
  readonly code: KnownErrorCode | undefined;
  readonly details: Record<string, unknown>;
  readonly extra: Record<string, unknown>;
  readonly topLevel: Record<string, unknown>;
  readonly headers: Record<string, string | number>;

  constructor(entry: CatalogueEntry, options: ServiceErrorOptions = {}) {
    super(options.message ?? entry.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.status = entry.status;
    this.envelope = entry.envelope;
    this.code = entry.code;
    // An entry's client code travels as `details.code`, so clients decide by code (spec/openapi.yaml, PlatformErrorDetails).
    this.details = { ...(entry.clientCode ? { code: entry.clientCode } : {}), ...options.details };
    this.extra = options.extra ?? {};
    this.topLevel = options.topLevel ?? {};
    this.headers = options.headers ?? {};
  }
}

/** `throw fail('saleDuplicate', { details: { sale_id } })`. */
export function fail(key: FixedCatalogueKey, options?: ServiceErrorOptions): ServiceError {
  return new ServiceError(catalogue[key], options);
}

/** `throw failTemplated('saleCurrencyUnsupported', [currency])`: an entry whose message is built from `args`. */
export function failTemplated<K extends TemplatedCatalogueKey>(key: K, args: TemplateArgs<K>, options?: ServiceErrorOptions): ServiceError {
  const entry = catalogue[key];
  const message = (entry.message as (...values: TemplateArgs<K>) => string)(...args);
  return new ServiceError({ ...entry, message }, options);
}

/** The one CLI 500: it names what failed and ends with the request id, also sent as `details.request_id`. */
export function cliFailure(what: CliFailure, requestId: string, cause: unknown): ServiceError {
  return failTemplated('cliFailed', [what, requestId], { details: { request_id: requestId }, cause });
}
