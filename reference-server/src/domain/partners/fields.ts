import { fail } from '../../errors/service-error';
// `short_link`: safe in `?aff=…` and a path segment; shared with the CLI, which checks it before sending.
import { shortLinkPattern } from '@svc/types';
import { characterCount } from '../programs/fields';

/** The partner and link fields a merchant (or an API caller) sends; each check names its field in the message. */

const emailPattern = /^[^\s@\0]+@[^\s@\0]+\.[^\s@\0]+$/;

export type PartnerStatus = 'active' | 'suspended';

/** 1 to 200 characters, counted as the spec's `maxLength` counts them (code points). */
export function partnerName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (name.length < 1 || characterCount(name) > 200 || name.includes('\0')) throw fail('partnerNameInvalid');
  return name;
}

/** Lower-cased so the partner view's join with a signed-in account (whose email is lower-cased) is exact. */
export function partnerEmail(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const email = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (email.length > 254 || !emailPattern.test(email)) throw fail('partnerEmailInvalid');
  return email;
}

export function partnerStatus(value: unknown): PartnerStatus {
  if (value !== 'active' && value !== 'suspended') throw fail('partnerStatusInvalid');
  return value;
}

/** A positive integer id, from a JSON body (number) or a path or query (digits). */
export function positiveId(
  value: unknown,
  invalid: 'partnerIdInvalid' | 'linkIdInvalid' | 'commissionIdInvalid' | 'payoutIdInvalid',
): number {
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (!Number.isSafeInteger(id) || (id as number) < 1) throw fail(invalid);
  return id as number;
}

export function shortLink(value: unknown): string {
  if (typeof value !== 'string' || !shortLinkPattern.test(value)) throw fail('linkShortLinkInvalid');
  return value;
}

export function enabledFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw fail('linkEnabledInvalid');
  return value;
}
