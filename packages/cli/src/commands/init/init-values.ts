import { commissionTypes, messageTemplates, type CliInitRequest, type CommissionType } from '@svc/types';
import { UsageError } from '../../cli/failures';

/** The four `svc init` flags as cac parses them (strings when given). */
export interface InitFlags {
  name?: string;
  domain?: string;
  commissionType?: string;
  commissionRate?: string;
}

export const initFlagNames = {
  name: '--name',
  domain: '--domain',
  commissionType: '--commission-type',
  commissionRate: '--commission-rate',
} as const satisfies Record<keyof InitFlags, string>;

export function missingFlags(flags: InitFlags): (keyof InitFlags)[] {
  return (Object.keys(initFlagNames) as (keyof InitFlags)[]).filter((key) => blank(flags[key]));
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

export function isCommissionType(value: string): value is CommissionType {
  return (commissionTypes as readonly string[]).includes(value);
}

/** `commission_rate` is a positive number (spec/rules.md "CLI errors"); checked here so a typo never reaches the service. */
export function parseRate(value: string): number | undefined {
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$|^\.\d+$/.test(trimmed)) return undefined;
  const rate = Number(trimmed);
  return Number.isFinite(rate) && rate > 0 ? rate : undefined;
}

/** Flags to the `POST /cli/init` body; bad values are usage errors (exit 2) with the service's own wording. */
export function toInitRequest(flags: InitFlags): CliInitRequest {
  const missing = missingFlags(flags);
  if (missing.length) {
    throw new UsageError(
      `Missing required ${missing.length === 1 ? 'value' : 'values'}: ${missing.map((key) => initFlagNames[key]).join(', ')} ` +
        '(run svc init in a terminal to be asked for them).',
      'init',
    );
  }
  const type = (flags.commissionType as string).trim();
  if (!isCommissionType(type)) throw new UsageError(messageTemplates.initCommissionType(type), 'init');
  const rate = parseRate(flags.commissionRate as string);
  if (rate === undefined) throw new UsageError('commission_rate must be a positive number', 'init');
  return { name: (flags.name as string).trim(), domain: (flags.domain as string).trim(), commission_type: type, commission_rate: rate };
}
