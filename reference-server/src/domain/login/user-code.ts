import { randomInt } from 'node:crypto';

/**
 * RFC 8628 section 6.1's user-code alphabet: consonants only (no vowels, so no words; no look-alikes such as 0/O).
 * Eight characters from twenty is about 34 bits, ample for a code that lives five minutes and is only compared
 * by a person.
 */
const alphabet = 'BCDFGHJKLMNPQRSTVWXZ';

/** A code such as `WDJB-MJHT` that `svc login` prints and the browser shows beside Authorize. */
export function newUserCode(): string {
  const pick = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${pick()}-${pick()}`;
}
