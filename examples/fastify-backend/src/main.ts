// `pnpm --filter @svc-examples/fastify-backend start`: the backend on port 3000, against `pnpm start`'s svc.
import { Svc } from '@svc/server';
import Stripe from 'stripe';
import { buildBackend } from './app';
import { Users } from './users';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required (see examples/fastify-backend/README.md)`);
  return value;
};

const app = buildBackend({
  svc: new Svc(), // SVC_API_KEY and SVC_BASE_URL
  // Stripe is optional: without STRIPE_SECRET_KEY the backend runs, and only /checkout says it is not configured.
  ...(process.env.STRIPE_SECRET_KEY
    ? {
        stripe: {
          client: new Stripe(process.env.STRIPE_SECRET_KEY),
          prices: { monthly: env('STRIPE_PRICE_MONTHLY'), lifetime: env('STRIPE_PRICE_LIFETIME') },
        },
      }
    : {}),
  programId: Number(env('SVC_PROGRAM_ID')),
  users: new Users(),
  appUrl: env('APP_URL', 'http://127.0.0.1:3000'),
  // Optional: add http://127.0.0.1:3000/webhooks/svc in the dashboard's Webhooks section and put its secret here.
  ...(process.env.SVC_WEBHOOK_SECRET ? { svcWebhookSecret: process.env.SVC_WEBHOOK_SECRET } : {}),
  onSvcEvent: (event) => {
    switch (event.type) {
      case 'commission.created':
        console.log(
          `partner ${event.data.partner_id} earned ${event.data.amount_cents} ${event.data.currency} cents on sale ${event.data.sale_id}`,
        );
        break;
      case 'sale.refunded':
        console.log(`sale ${event.data.sale_id} refunded; commission ${event.data.commission_status}`);
        break;
      default:
        console.log(`svc event ${event.type}`);
    }
  },
});
await app.listen({ port: Number(env('PORT', '3000')), host: '127.0.0.1' });
console.log('backend listening on http://127.0.0.1:3000');
