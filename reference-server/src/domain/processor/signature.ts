import { createHmac, timingSafeEqual } from 'node:crypto';

/** spec/rules.md "Events/Inbound": Stripe's signing tolerance; a delivery signed longer ago (or ahead) than this is refused. */
export const signatureToleranceSeconds = 300;

export type SignatureVerdict = 'valid' | 'missing' | 'invalid' | 'stale';

interface ParsedHeader {
  timestamp: number;
  signatures: string[];
}

/**
 * Verifies a `Stripe-Signature` header the way Stripe signs: `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<raw body>">` keyed with the whole signing secret (`whsec_…` included). Several `v1` values may be
 * present (secret roll-over): one match is enough. Other schemes (`v0`) are never accepted.
 * The timestamp must be within the tolerance of `nowMs` in both directions (replays and skewed signers).
 * `secrets` are every endpoint secret configured (`SVC_PROCESSOR_WEBHOOK_SECRET`): a signature by any one counts, so
 * a secret can be rotated without refusing deliveries signed with the old one.
 */
export function verifyStripeSignature(
  rawBody: string,
  header: string | undefined,
  secrets: readonly string[],
  nowMs: number,
): SignatureVerdict {
  if (header === undefined || header.trim() === '') return 'missing';
  const parsed = parseSignatureHeader(header);
  if (!parsed) return 'invalid';
  const signedBy = (secret: string) => {
    const expected = createHmac('sha256', secret).update(`${parsed.timestamp}.${rawBody}`, 'utf8').digest();
    return parsed.signatures.some((candidate) => sameSignature(expected, candidate));
  };
  if (!secrets.some(signedBy)) return 'invalid';
  const ageSeconds = Math.floor(nowMs / 1000) - parsed.timestamp;
  return Math.abs(ageSeconds) > signatureToleranceSeconds ? 'stale' : 'valid';
}

function parseSignatureHeader(header: string): ParsedHeader | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator < 0) continue;
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  return timestamp === undefined || signatures.length === 0 ? undefined : { timestamp, signatures };
}

/** Constant-time comparison of the expected digest with one hex candidate (both are 32 bytes here). */
function sameSignature(expected: Buffer, candidateHex: string): boolean {
  const candidate = Buffer.from(candidateHex, 'hex');
  return candidate.length === expected.length && timingSafeEqual(candidate, expected);
}
