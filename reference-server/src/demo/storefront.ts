import { createHash, randomUUID } from 'node:crypto';
import { demo } from './seed';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readCookie } from '../http/session-cookie';
import type { ServerSdk } from './sdk';
import { readStorefrontFile, storefrontFiles } from './storefront-files';

export const storefrontPath = '/demo/store/';

export interface StorefrontOptions {
  dir: string;
  sdk: ServerSdk;
  programId: number;
  apiKey: string;
  /** Where the demo backend reaches svc (the demo's own address, known once it listens). */
  baseUrl: () => string;
}

/** The backend's price list: the browser names a product, never a price. */
const products: Record<string, number> = { glider: 1900, dart: 4900 };
const userCookie = 'demo_user';

/** The storefront's stable internal user id for an email (the `customer_key` of every svc call). */
export const customerKeyFor = (email: string) =>
  `user_${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 16)}`;

const bodyField = (request: FastifyRequest, name: string): unknown =>
  typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>)[name] : undefined;

const refuse = (reply: FastifyReply, status: number, message: string) => reply.status(status).send({ message });

/**
 * The demo storefront: its static page at /demo/store/ and the tiny backend it talks to. Sign-up creates the
 * user (a cookie stands in for a login session); checkout "charges" and reports the sale with `@svc/server`
 * from the server, because sales are server-only (spec/rules.md "What the service does", item 9).
 */
export async function storefrontRoutes(app: FastifyInstance, options: StorefrontOptions): Promise<void> {
  let svc: InstanceType<ServerSdk['Svc']> | undefined;
  const client = () => (svc ??= new options.sdk.Svc({ apiKey: options.apiKey, baseUrl: options.baseUrl() }));

  const serve = async (file: string, reply: FastifyReply) => {
    const type = storefrontFiles[file];
    if (!type) return refuse(reply, 404, 'Not found');
    const body = await readStorefrontFile(options.dir, file, options.programId);
    return reply.type(type).header('Cache-Control', 'no-store').send(body);
  };
  // The page uses relative paths, so it must be served under the trailing slash.
  app.get('/demo/store', async (_request, reply) => reply.redirect(storefrontPath));
  app.get(storefrontPath, async (_request, reply) => serve('index.html', reply));
  app.get<{ Params: { file: string } }>(`${storefrontPath}:file`, async (request, reply) => serve(request.params.file, reply));

  app.post(`${storefrontPath}api/signup`, async (request, reply) => {
    const email = bodyField(request, 'email');
    if (typeof email !== 'string' || !email.includes('@')) return refuse(reply, 400, 'Enter an email address.');
    const customerKey = customerKeyFor(email);
    reply.header('Set-Cookie', `${userCookie}=${customerKey}; Path=/demo/store/; HttpOnly; SameSite=Lax`);
    return { customer_key: customerKey };
  });

  app.post(`${storefrontPath}api/checkout`, async (request, reply) => {
    const customerKey = readCookie(request.headers.cookie, userCookie);
    if (!customerKey) return refuse(reply, 401, 'Sign up first.');
    const amountCents = products[String(bodyField(request, 'product'))];
    if (amountCents === undefined) return refuse(reply, 400, 'Unknown product.');
    // Your payment processor's payment id: the sale's idempotency key (a retry answers 409, which the SDK resolves).
    const transactionId = `demo_${randomUUID()}`;
    try {
      const sale = await client().track.sale({
        transaction_id: transactionId,
        amount_cents: amountCents,
        currency: 'USD',
        customer_key: customerKey,
        provider: 'manual',
      });
      // What the shopper and the newcomer want to read: the amount paid and what the partner earns on it.
      return {
        transaction_id: transactionId,
        sale_id: sale.sale_id,
        amount_cents: amountCents,
        currency: 'USD',
        commission_percent: demo.commissionPercent,
      };
    } catch (error) {
      if (!(error instanceof options.sdk.SvcApiError)) throw error;
      return refuse(reply, 502, `svc did not record the sale: ${error.code ?? error.message} (${error.message})`);
    }
  });
}
