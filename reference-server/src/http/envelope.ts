import { catalogue, platformErrorNames, readinessRetryAfterSeconds, saleCodeByStatus, type PlatformStatus } from '@svc/types';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError, cliFailure, fail } from '../errors/service-error';

/** The one place any thrown value becomes the spec's envelope (spec/rules.md "Errors/Envelopes"). */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    const httpError = toServiceError(error, request);
    if (httpError.status >= 500) request.log.error({ err: error }, 'request failed');
    return send(httpError, request, reply);
  });
  app.setNotFoundHandler((request, reply) => send(fail('routeNotFound'), request, reply));
}

function toServiceError(error: FastifyError | ServiceError, request: FastifyRequest): ServiceError {
  if (error instanceof ServiceError) return error;
  // Fastify's own refusals of the body: size keeps its 413; media type and JSON syntax are invalid requests (400).
  if (error.statusCode === 413) return fail('payloadTooLarge', { cause: error });
  if (error.statusCode === 415) return fail('unsupportedMediaType', { cause: error });
  if (error.statusCode === 400 && error.code?.startsWith('FST_ERR_CTP')) return fail('invalidJson', { cause: error });
  return routeFailure(request, error);
}

/** The generic 500 of the route (spec/rules.md "Errors", "Messages on 500 are generic"), keeping the cause for the log. */
function routeFailure(request: FastifyRequest, cause: unknown): ServiceError {
  const config = request.routeOptions.config;
  if (config.cliFailure) return cliFailure(config.cliFailure, request.id, cause);
  if (config.failure) {
    // Readiness 500 is typed and tells when to retry (spec/rules.md "Limits", "Readiness 500 retry hint").
    const typed = catalogue[config.failure].envelope === 'typed';
    return fail(config.failure, { extra: typed ? { retry_after_seconds: readinessRetryAfterSeconds } : undefined, cause });
  }
  return fail('dashboardFailed', { cause });
}

function send(error: ServiceError, request: FastifyRequest, reply: FastifyReply) {
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.status(error.status).type('application/json; charset=utf-8').send(renderBody(error, request));
}

export function renderBody(error: ServiceError, request: FastifyRequest): Record<string, unknown> {
  if (error.envelope === 'typed') {
    return { ...error.topLevel, error: { code: error.code, message: error.message, ...error.extra } };
  }
  const withCode = request.routeOptions.config?.errorCodes === true;
  return {
    data: null,
    error: {
      status: error.status,
      name: platformErrorNames[error.status as PlatformStatus] ?? 'InternalServerError',
      message: error.message,
      ...(withCode ? { code: error.code ?? (saleCodeByStatus as Partial<Record<number, string>>)[error.status] ?? 'internal_error' } : {}),
      details: error.details,
    },
  };
}
