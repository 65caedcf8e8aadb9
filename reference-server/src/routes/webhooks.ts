import type { WebhookResponse } from '@svc/types';
import type { FastifyInstance } from 'fastify';
import { handleProcessorEvent } from '../domain/processor/handle-event';
import { parseEventEnvelope } from '../domain/processor/event';
import { verifyStripeSignature } from '../domain/processor/signature';
import { bodyLimitBytes } from '../http/body-parsers';
import { fail } from '../errors/service-error';
import { domainContext } from './domain-context';

const signatureFailures = {
  missing: 'webhookSignatureMissing',
  invalid: 'webhookSignatureInvalid',
  stale: 'webhookSignatureStale',
} as const;

/**
 * POST /api/v1/webhooks/processor (Stripe events; spec/rules.md "What the service does", item 7; spec/rules.md "Events/Inbound").
 * Registered as its own encapsulated plugin: the signature covers the exact bytes Stripe sent, so this scope's
 * JSON parser keeps the raw text and the route parses it only after verifying it.
 */
export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: bodyLimitBytes }, (_request, body, done) => {
    done(null, body);
  });
  app.addContentTypeParser('*', (_request, _payload, done) => done(fail('unsupportedMediaType'), undefined));

  app.post<{ Body: string | undefined }>('/api/v1/webhooks/processor', async (request): Promise<WebhookResponse> => {
    // Unconfigured is the service's failure (500): Stripe keeps redelivering until the secret is set, so no event is lost.
    if (app.svc.processorWebhookSecrets.length === 0) throw fail('webhookNotConfigured');
    const raw = typeof request.body === 'string' ? request.body : '';
    const header = request.headers['stripe-signature'];
    const verdict = verifyStripeSignature(
      raw,
      Array.isArray(header) ? header.join(',') : header,
      app.svc.processorWebhookSecrets,
      app.svc.clock.now(),
    );
    if (verdict !== 'valid') throw fail(signatureFailures[verdict]);

    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (cause) {
      throw fail('invalidJson', { cause });
    }
    const event = parseEventEnvelope(body);
    if (!event) throw fail('webhookNotAnEvent');

    return handleProcessorEvent(domainContext(app, request), event);
  });
}
