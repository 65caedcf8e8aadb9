import { fail } from '../../errors/service-error';
import { characterCount } from '../programs/fields';

type TextKey = 'payoutReferenceInvalid' | 'payoutMethodInvalid' | 'payoutNoteInvalid';

/** An optional free text of a payout (reference, method, note): trimmed, at most `max` characters; blank is null. */
export function payoutText(value: unknown, max: number, invalid: TextKey): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || characterCount(value.trim()) > max || value.includes('\0')) throw fail(invalid);
  return value.trim() === '' ? null : value.trim();
}

export function forceFlag(value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw fail('payoutForceInvalid');
  return value;
}
