import { SvcApiError, type Svc } from '@svc/server';
import { svcClickCookieHook } from '@svc/server/cookies';
import { withSvcMetadata } from '@svc/server/stripe';
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from '@svc/server/webhooks';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type Stripe from 'stripe';
import { cookie } from './cookies';
import type { Users } from './users';

export interface BackendOptions {
  svc: Svc;
  /** Stripe Checkout, optional: without it `/checkout` answers 501 and everything else works. */
  stripe?: {
    client: Stripe;
    /** Your Stripe price ids by plan. */
    prices: { monthly: string; lifetime: string };
  };
  programId: number;
  users: Users;
  /** Where Stripe sends the customer back. */
  appUrl: string;
  /** svc's webhooks, optional: the endpoint's `whsec_…` secret (dashboard, Webhooks). Without it `/webhooks/svc` answers 501. */
  svcWebhookSecret?: string;
  /** What the shop does with each verified svc event (once per `webhook-id`). */
  onSvcEvent?: (event: WebhookEvent) => void | Promise<void>;
}

const sessionCookie = 'sid';

/**
 * A customer backend: it reports leads and sales to svc from the server (with the program key), creates Stripe
 * checkout sessions that carry svc's attribution metadata, and keeps the click cookie past Safari's 7-day cap.
 */
export function buildBackend(options: BackendOptions): FastifyInstance {
  const { svc, stripe, users } = options;
  const app = Fastify();
  const clickId = (request: FastifyRequest) => cookie(request.headers.cookie, 'svc_click_id');
  const signedIn = (request: FastifyRequest) => users.find(cookie(request.headers.cookie, sessionCookie));

  // Safari caps cookies set by script at 7 days; re-issued from the server, svc_click_id keeps its full lifetime.
  app.addHook('onRequest', svcClickCookieHook({ windowDays: 60 }));

  app.post<{ Body: { email?: string } }>('/signup', async (request, reply) => {
    const email = request.body?.email;
    if (typeof email !== 'string' || !email.includes('@')) return reply.status(400).send({ message: 'email is required' });
    const user = users.create(email);
    // A server-mode lead (with the key): it counts even on a `server_required` program, unlike a browser lead.
    const click = clickId(request);
    await svc.track.lead({ customer_key: user.id, email, ...(click ? { click_id: click } : {}) });
    reply.header('set-cookie', `${sessionCookie}=${user.id}; Path=/; HttpOnly; SameSite=Lax`);
    return { user_id: user.id };
  });

  // Stripe-hosted checkout: svc attributes the payment from the webhook, using the metadata added here.
  app.post<{ Body: { plan?: string } }>('/checkout', async (request, reply) => {
    if (!stripe)
      return reply
        .status(501)
        .send({ message: 'Stripe is not configured: set STRIPE_SECRET_KEY, STRIPE_PRICE_MONTHLY and STRIPE_PRICE_LIFETIME' });
    const user = signedIn(request);
    if (!user) return reply.status(401).send({ message: 'Sign in first' });
    const plan = request.body?.plan;
    if (plan !== 'monthly' && plan !== 'lifetime') return reply.status(400).send({ message: 'plan must be monthly or lifetime' });
    const params: Stripe.Checkout.SessionCreateParams = {
      mode: plan === 'monthly' ? 'subscription' : 'payment',
      line_items: [{ price: stripe.prices[plan], quantity: 1 }],
      customer_email: user.email,
      success_url: `${options.appUrl}/welcome?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${options.appUrl}/pricing`,
      metadata: { plan },
    };
    // For subscriptions the helper copies the metadata onto the subscription too, so every renewal attributes.
    const session = await stripe.client.checkout.sessions.create(
      withSvcMetadata(params, { clickId: clickId(request), customerKey: user.id, programId: options.programId }),
    );
    return { id: session.id, url: session.url };
  });

  // A payment outside Stripe (an invoice paid by bank transfer): the backend reports the sale itself.
  app.post<{ Params: { id: string }; Body: { amount_cents?: number } }>('/invoices/:id/paid', async (request, reply) => {
    const user = signedIn(request);
    if (!user) return reply.status(401).send({ message: 'Sign in first' });
    const amountCents = request.body?.amount_cents;
    if (!Number.isSafeInteger(amountCents) || (amountCents as number) <= 0)
      return reply.status(400).send({ message: 'amount_cents must be a positive integer' });
    try {
      // The invoice id is the idempotency key: reporting the same payment twice answers `duplicate: true`.
      const sale = await svc.track.sale({
        transaction_id: `inv_${request.params.id}`,
        amount_cents: amountCents as number,
        currency: 'USD',
        customer_key: user.id,
        provider: 'manual',
      });
      return { sale_id: sale.sale_id, commission_id: sale.duplicate ? null : sale.commission_id, duplicate: sale.duplicate };
    } catch (error) {
      // `no_attribution` (decided by code, never by message): the customer came through no referral link, or outside
      // the window. Not an error for the shop. Any other refusal (a bad amount, an unknown customer) is a bug to see.
      if (error instanceof SvcApiError && error.code === 'no_attribution') return { sale_id: null, reason: error.code };
      throw error;
    }
  });

  // svc's webhooks (Standard Webhooks): verified against the raw body, so this route reads the body as text.
  app.register(async (scope) => {
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const seen = new Set<string>();
    scope.post('/webhooks/svc', async (request, reply) => {
      if (!options.svcWebhookSecret) return reply.status(501).send({ message: 'svc webhooks are not configured: set SVC_WEBHOOK_SECRET' });
      let event: WebhookEvent;
      try {
        event = await verifyWebhook(typeof request.body === 'string' ? request.body : '', request.headers, options.svcWebhookSecret);
      } catch (error) {
        // Not from svc, changed on the way, or a replay older than 5 minutes: refuse, process nothing.
        if (error instanceof WebhookVerificationError) return reply.status(400).send({ message: error.message, code: error.code });
        throw error;
      }
      // A retry keeps its webhook-id: handle each event once (keep these ids in your database in production).
      const id = String(request.headers['webhook-id']);
      if (seen.has(id)) return { received: true, duplicate: true };
      await options.onSvcEvent?.(event);
      seen.add(id);
      return { received: true };
    });
  });

  return app;
}
