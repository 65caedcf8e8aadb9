import type { CommissionType, LeadAuth } from '@svc/types';
import { newProgramKey } from './keys';
import { insertProgram } from '../../store/programs';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';

/** spec/rules.md "Resources/Program": `attribution_window_days` default 60; `lead_auth` default `server_required`. */
export const defaultAttributionWindowDays = 60;
export const defaultLeadAuth: LeadAuth = 'server_required';

export interface CreateProgramInput {
  workspaceId: number;
  advertiserId: number;
  name: string;
  domain: string;
  commissionType: CommissionType;
  commissionRate: number;
  attributionWindowDays?: number;
  leadAuth?: LeadAuth;
  /** Null (the default) allows any origin. */
  allowedOrigins?: string[] | null;
}

export interface CreatedProgram {
  program: Program;
  /** The key in full; shown only in the response that issues it (only its hash is stored). */
  apiToken: string;
}

/**
 * Creates a program with a fresh key and zeroed metrics. Callers validate their own wire input first
 * (`cli/init` and `/_test/programs` answer with different messages).
 */
export async function createProgram(deps: Pick<DomainContext, 'db' | 'clock'>, input: CreateProgramInput): Promise<CreatedProgram> {
  const key = newProgramKey();
  const program = await insertProgram(deps.db, {
    workspace_id: input.workspaceId,
    advertiser_id: input.advertiserId,
    name: input.name,
    domain: input.domain,
    commission_type: input.commissionType,
    commission_rate: input.commissionRate,
    attribution_window_days: input.attributionWindowDays ?? defaultAttributionWindowDays,
    lead_auth: input.leadAuth ?? defaultLeadAuth,
    allowed_origins: input.allowedOrigins ? JSON.stringify(input.allowedOrigins) : null,
    api_key_hash: key.hash,
    api_key_last4: key.last4,
    key_marked_at: null,
    key_rotate_by: null,
    processor_account: null,
    created_at: deps.clock.now(),
  });
  return { program, apiToken: key.key };
}
