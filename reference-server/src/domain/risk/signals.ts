import type { Customer, Partner, Program } from '../../store/schema';
import { emailDomain, emailKey, isDisposableDomain, isSharedMailDomain } from './email';
import { ipHash } from './ip';
import type { RiskSignal } from './record';

/** What a settling, attributed, real lead knows when it is decided (all read before its batch, none in it). */
export interface LeadFacts {
  program: Program;
  customer: Customer;
  /** The partner the customer came through. */
  partner: Partner;
  /** The lead's email, else the one the customer already had. */
  email: string | null;
  /** The lead's customer key, else the one the customer already had. */
  customerKey: string | null;
  /** The request's IP: browser leads only (a server-mode lead comes from the merchant's backend, not the visitor). */
  ip?: string;
  now: number;
  /** The program's partners with an email (for `shared_identity`); read only when the lead has an email. */
  partners: readonly { id: number; email: string }[];
}

/** How a customer is named in a risk event: its key when it has one, else its click id. */
function customerSubject(customer: Customer, key: string | null): RiskSignal['subject'] {
  return { type: 'customer', id: key ?? customer.click_id ?? String(customer.id) };
}

/** The signals of a lead: self-referral, disposable email, fast conversion, and a partner signing up as a customer. */
export function leadSignals(facts: LeadFacts): RiskSignal[] {
  const { customer, partner } = facts;
  const subject = customerSubject(customer, facts.customerKey);
  const onCustomer = { customerId: customer.id };
  const signals: RiskSignal[] = [];
  const key = emailKey(facts.email);
  signals.push(...emailSignals(customer, facts.customerKey, partner, facts.email));
  if (key !== undefined) {
    for (const other of partnersByMailbox(facts.partners).get(key) ?? []) {
      if (other.id === partner.id) continue;
      // A partner signing up through another partner's link: held on the partner who is the customer.
      signals.push({
        kind: 'shared_identity',
        partnerId: other.id,
        subject,
        flags: { partnerId: other.id },
        details: { reason: 'partner_is_customer', email: facts.email, referred_by_partner_id: partner.id },
      });
    }
  }
  const fast = fastConversion(facts);
  if (fast !== undefined) signals.push({ kind: 'fast_conversion', partnerId: partner.id, subject, flags: onCustomer, details: fast });
  return signals;
}

/** The partners of each list by mailbox (`emailKey`), in the list's order. */
const mailboxes = new WeakMap<readonly { id: number; email: string }[], Map<string, { id: number; email: string }[]>>();

/**
 * `partners` by mailbox, made once per list: the lead's list comes from the lookup cache (store/risk-events.ts,
 * `partnerEmails`), the same array until a partner changes, so a lead finds its email's partners without reducing
 * every partner's address again (docs/performance-notes.md, "The hot path, seventh pass").
 */
function partnersByMailbox(partners: readonly { id: number; email: string }[]): Map<string, { id: number; email: string }[]> {
  let index = mailboxes.get(partners);
  if (!index) {
    index = new Map();
    for (const partner of partners) {
      const key = emailKey(partner.email);
      if (key === undefined) continue;
      const same = index.get(key);
      if (same) same.push(partner);
      else index.set(key, [partner]);
    }
    mailboxes.set(partners, index);
  }
  return index;
}

/**
 * What an email says of a partner's customer: `self_referral` (the partner's own mailbox, or the partner's own
 * non-webmail domain) and `disposable_email` (domain/risk/email.ts). A lead's email, or a processor customer's.
 */
export function emailSignals(customer: Customer, customerKey: string | null, partner: Partner, email: string | null): RiskSignal[] {
  const key = emailKey(email);
  const domain = emailDomain(email);
  if (key === undefined || domain === undefined) return [];
  const subject = customerSubject(customer, customerKey);
  const flags = { customerId: customer.id };
  const signals: RiskSignal[] = [];
  if (emailKey(partner.email) === key) {
    signals.push({
      kind: 'self_referral',
      partnerId: partner.id,
      subject,
      flags,
      details: { reason: 'same_email', email, partner_email: partner.email },
    });
  } else if (emailDomain(partner.email) === domain && !isSharedMailDomain(domain)) {
    signals.push({
      kind: 'self_referral',
      partnerId: partner.id,
      subject,
      flags,
      details: { reason: 'same_domain', domain, email, partner_email: partner.email },
    });
  }
  if (isDisposableDomain(domain))
    signals.push({ kind: 'disposable_email', partnerId: partner.id, subject, flags, details: { email, domain } });
  return signals;
}

/** A browser lead from its click's IP within the program's `fast_conversion_seconds` of the click. */
function fastConversion({ program, customer, ip, now }: LeadFacts): Record<string, unknown> | undefined {
  const limitMs = Number(program.fast_conversion_seconds) * 1000;
  if (limitMs <= 0 || ip === undefined || customer.click_ip === null || customer.clicked_at === null) return undefined;
  const elapsed = now - Number(customer.clicked_at);
  if (elapsed < 0 || elapsed > limitMs || ipHash(ip) !== customer.click_ip) return undefined;
  return { seconds: elapsed / 1000, ip };
}

/**
 * Two partners of a program with the same mailbox: one event on each, naming the other (a new or changed partner's
 * email against the program's other partners).
 */
export function sharedIdentitySignals(
  partner: { id: number; email: string | null },
  partners: readonly { id: number; email: string }[],
): RiskSignal[] {
  const key = emailKey(partner.email);
  if (key === undefined) return [];
  const signals: RiskSignal[] = [];
  for (const other of partners) {
    if (other.id === partner.id || emailKey(other.email) !== key) continue;
    const details = (otherId: number, email: string) => ({ reason: 'same_email', email, other_partner_id: otherId });
    signals.push({
      kind: 'shared_identity',
      partnerId: partner.id,
      subject: { type: 'partner', id: String(other.id) },
      flags: { partnerId: partner.id },
      details: details(other.id, partner.email!),
    });
    signals.push({
      kind: 'shared_identity',
      partnerId: other.id,
      subject: { type: 'partner', id: String(partner.id) },
      flags: { partnerId: other.id },
      details: details(partner.id, other.email),
    });
  }
  return signals;
}
