import type { FastifyInstance } from 'fastify';
import { clickRoute } from './click';
import { registerCors } from './cors';
import { leadRoute } from './lead';
import { refundRoute } from './refund';
import { saleRoute } from './sale';

/** Click and lead are browser-callable: CORS applies to them only (spec/rules.md "Authentication" rule 6). */
async function browserRoutes(app: FastifyInstance): Promise<void> {
  registerCors(app, ['/api/v1/track/click', '/api/v1/track/lead']);
  app.register(clickRoute);
  app.register(leadRoute);
}

/** spec/rules.md "Endpoints": POST /api/v1/track/click, /lead, /sale, /refund (no `/api/tracking/` alias). */
export async function trackingRoutes(app: FastifyInstance): Promise<void> {
  app.register(browserRoutes);
  app.register(saleRoute);
  app.register(refundRoute);
}
