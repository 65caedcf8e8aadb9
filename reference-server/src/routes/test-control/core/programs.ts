import { commissionTypes, type CommissionType, type LeadAuth } from '@svc/types';
import type { FastifyInstance } from 'fastify';
import { createAccountWithWorkspace } from '../../../store/new-account';
import { createProgram, defaultAttributionWindowDays, defaultLeadAuth } from '../../../domain/programs/create-program';
import { findAdvertiserIdOfAccount, findWorkspaceIdOfAdvertiser } from '../../../store/accounts';
import { findProgramById, markKeyRotation } from '../../../store/programs';
import { invalid, notFound, objectBody, optionalInteger, optionalString, optionalTime, pathId, type Fields } from './fields';

const programFields = [
  'name',
  'domain',
  'commission_type',
  'commission_rate',
  'attribution_window_days',
  'lead_auth',
  'allowed_origins',
  'account_id',
] as const;

function commissionType(body: Fields): CommissionType {
  const value = body.commission_type ?? 'percent';
  if (!commissionTypes.includes(value as CommissionType)) throw invalid(`commission_type must be one of: ${commissionTypes.join(', ')}`);
  return value as CommissionType;
}

function commissionRate(body: Fields): number {
  const value = body.commission_rate ?? 10;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw invalid('commission_rate must be a positive number');
  return value;
}

function leadAuth(body: Fields): LeadAuth {
  const value = body.lead_auth ?? defaultLeadAuth;
  if (value !== 'server_required' && value !== 'browser_allowed') throw invalid('lead_auth must be server_required or browser_allowed');
  return value;
}

function allowedOrigins(body: Fields): string[] | null {
  const value = body.allowed_origins;
  if (value === undefined) return null;
  if (!Array.isArray(value) || !value.every((o) => typeof o === 'string')) throw invalid('allowed_origins must be an array of strings');
  return value;
}

/** Test-control: `POST /_test/programs` and `POST /_test/programs/{id}/key-rotation`. */
export async function programControlRoutes(app: FastifyInstance): Promise<void> {
  app.post('/_test/programs', async (request, reply) => {
    const body = objectBody(request.body, programFields);
    const db = app.svc.store.db;
    const now = app.svc.clock.now();
    const input = {
      name: optionalString(body, 'name') ?? 'Test program',
      domain: optionalString(body, 'domain') ?? 'shop.example.com',
      commissionType: commissionType(body),
      commissionRate: commissionRate(body),
      attributionWindowDays: optionalInteger(body, 'attribution_window_days') ?? defaultAttributionWindowDays,
      leadAuth: leadAuth(body),
      allowedOrigins: allowedOrigins(body),
    };
    const accountId = optionalInteger(body, 'account_id');
    let owner: { accountId: number; advertiserId: number; workspaceId: number };
    if (accountId === undefined) {
      owner = await createAccountWithWorkspace(db, { now });
    } else {
      const advertiserId = await findAdvertiserIdOfAccount(db, accountId);
      if (advertiserId === undefined) throw notFound(`Account ${accountId} not found`);
      const workspaceId = await findWorkspaceIdOfAdvertiser(db, advertiserId);
      if (workspaceId === undefined) throw notFound(`Account ${accountId} has no workspace`);
      owner = { accountId, advertiserId, workspaceId };
    }
    const { program, apiToken } = await createProgram(
      { db, clock: app.svc.clock },
      { ...input, workspaceId: owner.workspaceId, advertiserId: owner.advertiserId },
    );
    return reply.status(201).send({ id: program.id, api_token: apiToken, account_id: owner.accountId, advertiser_id: owner.advertiserId });
  });

  app.post<{ Params: { id: string } }>('/_test/programs/:id/key-rotation', async (request) => {
    const id = pathId(request.params.id);
    const body = objectBody(request.body, ['rotate_by', 'marked_at']);
    const rotateBy = optionalTime(body, 'rotate_by');
    if (rotateBy === undefined) throw invalid('rotate_by is required');
    const markedAt = optionalTime(body, 'marked_at') ?? app.svc.clock.now();
    if (!(await findProgramById(app.svc.store.db, id))) throw notFound(`Program ${id} not found`);
    await markKeyRotation(app.svc.store.db, id, markedAt, rotateBy);
    return { program_id: id, rotate_by: new Date(rotateBy).toISOString(), marked_at: new Date(markedAt).toISOString() };
  });
}
