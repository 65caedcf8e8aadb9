import type { FastifyInstance } from 'fastify';
import { fail } from '../../errors/service-error';
import { connectProcessorAccount } from '../../store/processor-connections';

const invalid = (message: string) => fail('testControlInvalid', { message });

/**
 * Test-control: processor connections. Stands in for the dashboard's "Payment processor" setting (the real
 * OAuth hand-shake cannot run offline): stores the connected-account id and hands out the signing secret.
 */
export async function processorControlRoutes(app: FastifyInstance): Promise<void> {
  app.post<{ Body: unknown }>('/_test/processor-connections', async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('Body must be a JSON object');
    const { program_id: programId, account, ...rest } = body as Record<string, unknown>;
    const unknown = Object.keys(rest)[0];
    if (unknown !== undefined) throw invalid(`Unknown field: ${unknown}`);
    if (!Number.isSafeInteger(programId)) throw invalid('program_id is required and must be an integer');
    if (typeof account !== 'string' || account.trim() === '') throw invalid('account is required and must be a non-empty string');

    const result = await connectProcessorAccount(app.svc.store.db, programId as number, account.trim());
    if (result === 'program_not_found') throw fail('testControlNotFound', { message: `Program ${String(programId)} not found` });
    if (result === 'account_taken') throw invalid(`Account ${account.trim()} is already connected to another program`);
    // The first configured secret (what Stripe signs with after a rotation's overlap), or the process's own.
    return reply.status(201).send({ webhook_secret: app.svc.processorWebhookSecrets[0] });
  });
}
