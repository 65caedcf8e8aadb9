import type { FastifyInstance } from 'fastify';
import { faultPoints, type FaultPoint } from '../../../faults';
import { programRecords } from '../../../store/records';
import { findProgramById } from '../../../store/programs';
import { invalid, notFound, objectBody, optionalInteger, optionalTime, pathId } from './fields';

/** Test-control: reset, the clock, faults, and a program's records. */
export async function stateControlRoutes(app: FastifyInstance): Promise<void> {
  app.post('/_test/reset', async (request, reply) => {
    objectBody(request.body, []);
    await app.svc.store.wipe();
    app.svc.testClock?.reset();
    app.svc.faults.reset();
    await app.svc.rateLimitStore.reset();
    return reply.status(204).send();
  });

  // Every time rule reads this clock (windows, occurred_at bounds, sessions, rate limits, rotation, chain cap).
  app.post('/_test/clock', async (request) => {
    const body = objectBody(request.body, ['advance_seconds', 'now']);
    const clock = app.svc.testClock;
    if (!clock) throw invalid('The clock is not controllable');
    const hasAdvance = body.advance_seconds !== undefined;
    const at = optionalTime(body, 'now');
    if (hasAdvance === (at !== undefined)) throw invalid('Send exactly one of advance_seconds or now');
    if (hasAdvance) {
      if (typeof body.advance_seconds !== 'number' || !Number.isFinite(body.advance_seconds)) {
        throw invalid('advance_seconds must be a number');
      }
      clock.advance(body.advance_seconds);
    } else {
      clock.set(at as number);
    }
    return { now: new Date(clock.now()).toISOString() };
  });

  app.post('/_test/faults', async (request) => {
    const body = objectBody(request.body, ['point', 'times']);
    if (!faultPoints.includes(body.point as FaultPoint)) throw invalid(`point must be one of: ${faultPoints.join(', ')}`);
    const times = optionalInteger(body, 'times') ?? 1;
    app.svc.faults.arm(body.point as FaultPoint, times);
    return { point: body.point as FaultPoint, times };
  });

  app.get<{ Params: { id: string } }>('/_test/programs/:id/records', async (request) => {
    const id = pathId(request.params.id);
    const db = app.svc.store.db;
    if (!(await findProgramById(db, id))) throw notFound(`Program ${id} not found`);
    const records = await programRecords(db, id);
    return {
      clicks: records.clicks.map((c) => ({ click_id: c.click_id, partner_id: c.partner_id, is_test: c.is_test === 1 })),
      customers: records.customers.map((c) => ({
        customer_key: c.customer_key,
        click_id: c.click_id,
        partner_id: c.partner_id,
        status: c.status,
        provisional: c.provisional === 1,
        is_test: c.is_test === 1,
      })),
      sales: records.sales.map((s) => ({
        id: s.id,
        processor_event_id: s.processor_event_id,
        amount_cents: s.amount_cents,
        currency: s.currency,
        is_test: s.is_test === 1,
        refunded: s.refunded === 1,
      })),
      commissions: records.commissions,
    };
  });
}
