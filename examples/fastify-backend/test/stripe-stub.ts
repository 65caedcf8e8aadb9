import Fastify from 'fastify';
import Stripe from 'stripe';

export interface StripeStub {
  stripe: Stripe;
  /** The form fields of every `POST /v1/checkout/sessions`, as Stripe's client encoded them (`metadata[program_id]`…). */
  sessions: Record<string, string>[];
  close(): Promise<void>;
}

/**
 * A local stand-in for Stripe's API (no network in tests): the real `stripe` client, pointed at this server with
 * its `host`/`port`/`protocol` options, so the request is encoded exactly as it would be for Stripe.
 */
export async function startStripeStub(): Promise<StripeStub> {
  const sessions: Record<string, string>[] = [];
  const app = Fastify();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post<{ Body: Record<string, string> }>('/v1/checkout/sessions', async (request) => {
    const form = request.body;
    sessions.push(form);
    const id = `cs_test_${sessions.length}`;
    const metadata = Object.fromEntries(
      Object.entries(form)
        .filter(([key]) => key.startsWith('metadata['))
        .map(([key, value]) => [key.slice('metadata['.length, -1), value]),
    );
    return { id, object: 'checkout.session', mode: form.mode, metadata, url: `https://checkout.stripe.com/c/pay/${id}` };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stripe = new Stripe('sk_test_example', { host: '127.0.0.1', port, protocol: 'http', maxNetworkRetries: 0, telemetry: false });
  return { stripe, sessions, close: () => app.close() };
}
