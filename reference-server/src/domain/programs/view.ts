import type { Program as ProgramWire } from '@svc/types';
import { maskKey } from './keys';
import { allowedOriginsOf } from '../../store/programs';
import type { Program } from '../../store/schema';
import { kindsOf } from '../risk/kinds';

/**
 * A program as the API shows it (`Program` schema): the key in full only when `apiToken` is the one just
 * issued, masked everywhere else (spec/rules.md "Resources/Program", api_token).
 */
export function programView(program: Program, apiToken?: string): ProgramWire {
  return {
    id: program.id,
    name: program.name,
    domain: program.domain,
    commission_type: program.commission_type,
    commission_rate: program.commission_rate,
    attribution_window_days: program.attribution_window_days,
    lead_auth: program.lead_auth,
    allowed_origins: allowedOriginsOf(program),
    commission_hold_days: Number(program.commission_hold_days),
    min_payout_cents: Number(program.min_payout_cents),
    risk_hold_kinds: kindsOf(program.risk_hold_kinds),
    click_flood_threshold: Number(program.click_flood_threshold),
    fast_conversion_seconds: Number(program.fast_conversion_seconds),
    api_token: apiToken ?? maskKey(program.api_key_last4),
    advertiser_id: program.advertiser_id,
    created_at: new Date(program.created_at).toISOString(),
  };
}
