import { catalogue, type CatalogueEntry, type CatalogueKey, type Envelope, type KnownErrorCode } from '@svc/types';

export interface ServiceErrorOptions {
  /** Overrides the catalogue message (templated messages, e.g. `messageTemplates.saleCurrency`). */
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
export function fail(key: CatalogueKey, options?: ServiceErrorOptions): ServiceError {
  return new ServiceError(catalogue[key], options);
}
