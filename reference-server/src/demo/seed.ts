import { createProgram } from '../domain/programs/create-program';
import { createAccountWithWorkspace } from '../domain/login/new-account';
import { hashKey, newProgramKey } from '../domain/programs/keys';
import type { Clock } from '../clock';
import { findAccountByEmail, findAdvertiserIdOfAccount, findWorkspaceIdOfAdvertiser } from '../store/accounts';
import type { Store } from '../store/db';
import { findLinkByShortLink, insertLink, setLinkEnabled } from '../store/links';
import { insertPartner } from '../store/partners';
import { isUniqueViolation } from '../store/unique-violation';
import { findPartnerByName, findProgramByName, replaceProgramKey, setLeadAuth } from './seed-store';

/** The demo's fixed names: the seed finds them again on every start instead of creating duplicates. */
export const demo = {
  email: 'demo@example.com',
  programName: 'Demo store',
  partnerName: 'Demo partner',
  shortLink: 'demo-partner',
} as const;

export interface Seeded {
  accountId: number;
  programId: number;
  partnerId: number;
  shortLink: string;
  /** The program key in full. Only its hash is stored, so the seed issues it again on every start. */
  apiKey: string;
}

/**
 * Seeds (idempotently) the demo account, its program, a partner and the partner's referral link. The program
 * allows browser leads (`lead_auth: browser_allowed`) so the storefront's signup helper settles the lead
 * (§States and transitions: with `server_required` it would stay provisional until the backend confirms it).
 * The key: `apiKey` when given (stable across restarts), otherwise a fresh one; the previous key stops working.
 */
export async function seedDemo(store: Store, clock: Clock, options: { apiKey?: string } = {}): Promise<Seeded> {
  const db = store.db;
  const now = clock.now();
  const accountId = await ensureAccount(store, now);
  const advertiserId = await findAdvertiserIdOfAccount(db, accountId);
  const workspaceId = advertiserId === undefined ? undefined : await findWorkspaceIdOfAdvertiser(db, advertiserId);
  if (advertiserId === undefined || workspaceId === undefined) throw new Error(`demo account ${demo.email} has no workspace`);

  const key = options.apiKey ? { key: options.apiKey, hash: hashKey(options.apiKey), last4: options.apiKey.slice(-4) } : newProgramKey();
  let programId = (await findProgramByName(db, workspaceId, demo.programName))?.id;
  if (programId === undefined) {
    const created = await createProgram(
      { db, clock },
      {
        workspaceId,
        advertiserId,
        name: demo.programName,
        domain: '127.0.0.1',
        commissionType: 'percent',
        commissionRate: 20,
        leadAuth: 'browser_allowed',
      },
    );
    programId = created.program.id;
  }
  await replaceProgramKey(db, programId, key);
  await setLeadAuth(db, programId, 'browser_allowed');

  const partnerId = (await findPartnerByName(db, programId, demo.partnerName)) ?? (await insertPartner(db, { programId, name: demo.partnerName, now }));
  await ensureLink(store, { programId, partnerId, now });
  return { accountId, programId, partnerId, shortLink: demo.shortLink, apiKey: key.key };
}

async function ensureAccount(store: Store, now: number): Promise<number> {
  const existing = await findAccountByEmail(store.db, demo.email);
  if (existing) return existing.id;
  return (await createAccountWithWorkspace(store.db, { email: demo.email, now })).accountId;
}

/** The link must point at the demo partner; a link of that name owned by something else is a clear error, not a silent takeover. */
async function ensureLink(store: Store, input: { programId: number; partnerId: number; now: number }): Promise<void> {
  const existing = await findLinkByShortLink(store.db, demo.shortLink);
  if (!existing) {
    try {
      await insertLink(store.db, { ...input, shortLink: demo.shortLink });
      return;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return ensureLink(store, input);
    }
  }
  if (existing.program_id !== input.programId || existing.partner_id !== input.partnerId) {
    throw new Error(`referral link ${demo.shortLink} already belongs to program ${existing.program_id}; use a fresh DATABASE_URL for the demo`);
  }
  if (existing.enabled !== 1) await setLinkEnabled(store.db, demo.shortLink, true);
}
