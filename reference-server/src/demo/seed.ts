import { createProgram } from '../domain/programs/create-program';
import { createAccountWithWorkspace } from '../store/new-account';
import { hashKey, newProgramKey } from '../domain/programs/keys';
import type { Clock } from '../clock';
import { findAccountByEmail, findAdvertiserIdOfAccount, findWorkspaceIdOfAdvertiser } from '../store/accounts';
import type { Store } from '../store/db';
import { createLink, setProgramLinkEnabled } from '../domain/partners/links';
import { systemActor } from '../domain/audit/actor';
import { recordAudit } from '../domain/audit/record';
import { programForChange } from '../store/dashboard-programs';
import { createPartner } from '../domain/partners/partners';
import { ServiceError } from '../errors/service-error';
import { findLinkByShortLink } from '../store/links';
import { findProgramById } from '../store/programs';
import type { Program } from '../store/schema';
import { findPartnerByName, findProgramByName, replaceProgramKey, setDomain, setLeadAuth } from './seed-store';

/** The demo's fixed names: the seed finds them again on every start instead of creating duplicates. */
export const demo = {
  email: 'demo@example.com',
  programName: 'Demo store',
  partnerName: 'Demo partner',
  /** The partner's invitation: signing in with it shows the partner view. */
  partnerEmail: 'partner@example.com',
  /** The demo program pays this percent of each first sale. */
  commissionPercent: 20,
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
 * Seeds (idempotently) the demo account, its program, a partner and the partner's referral link — the partner and
 * the link through the same domain code as the dashboard, the CLI and the API, so the demo cannot drift from them. The program
 * allows browser leads (`lead_auth: browser_allowed`) so the storefront's signup helper settles the lead
 * (spec/rules.md "States and transitions": with `server_required` it would stay provisional until the backend confirms it).
 * The key: `apiKey` when given (stable across restarts), otherwise a fresh one; the previous key stops working.
 * `sitePath` (the storefront's path on this server, no host or port) becomes the program's domain: the shareable URL
 * of every link is made from the server's address when read (`shareableUrl`), so a start on another port leaves no
 * dead links behind, and every link the Partners section creates opens the storefront.
 */
export async function seedDemo(store: Store, clock: Clock, options: { apiKey?: string; sitePath?: string } = {}): Promise<Seeded> {
  const db = store.db;
  const now = clock.now();
  const accountId = await ensureAccount(store, now);
  const advertiserId = await findAdvertiserIdOfAccount(db, accountId);
  const workspaceId = advertiserId === undefined ? undefined : await findWorkspaceIdOfAdvertiser(db, advertiserId);
  if (advertiserId === undefined || workspaceId === undefined) throw new Error(`demo account ${demo.email} has no workspace`);

  const key = options.apiKey ? { key: options.apiKey, hash: hashKey(options.apiKey), last4: options.apiKey.slice(-4) } : newProgramKey();
  let programId = (await findProgramByName(db, workspaceId, demo.programName))?.id;
  const earlier = programId !== undefined;
  if (programId === undefined) {
    const created = await createProgram(
      { db, clock },
      {
        workspaceId,
        advertiserId,
        name: demo.programName,
        domain: '127.0.0.1',
        commissionType: 'percent',
        commissionRate: demo.commissionPercent,
        leadAuth: 'browser_allowed',
      },
    );
    programId = created.program.id;
  }
  await reissueKey({ db, clock }, programId, key, earlier);
  await setLeadAuth(db, programId, 'browser_allowed');
  if (options.sitePath) await setDomain(db, programId, options.sitePath);

  const program = (await findProgramById(db, programId)) as Program;
  const partnerId =
    (await findPartnerByName(db, programId, demo.partnerName)) ??
    (await createPartner({ db, clock }, program, { name: demo.partnerName, email: demo.partnerEmail }, systemActor, { accepted: true })).id;
  await ensureLink({ db, clock }, program, partnerId);
  return { accountId, programId, partnerId, shortLink: demo.shortLink, apiKey: key.key };
}

async function ensureAccount(store: Store, now: number): Promise<number> {
  const existing = await findAccountByEmail(store.db, demo.email);
  if (existing) return existing.id;
  return (await createAccountWithWorkspace(store.db, { email: demo.email, now })).accountId;
}

/**
 * Stores the start's key; replacing an earlier one (a program seeded by an earlier start) is a key regeneration by
 * the system, in the audit log like the dashboard's (last four characters only).
 */
async function reissueKey(
  deps: { db: Store['db']; clock: Clock },
  programId: number,
  key: { hash: string; last4: string },
  earlier: boolean,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await programForChange(trx, programId);
    await replaceProgramKey(trx, programId, key);
    // A program created by this start has had no key anyone used: nothing to record.
    if (!earlier || before.api_key_hash === key.hash) return;
    await recordAudit(trx, {
      programId,
      actor: systemActor,
      action: 'program.key_regenerated',
      target: `program:${programId}`,
      details: { api_key_last4: { from: before.api_key_last4, to: key.last4 } },
      now: deps.clock.now(),
    });
  });
}

/** The link must point at the demo partner; a link of that name owned by something else is a clear error, not a silent takeover. */
async function ensureLink(deps: { db: Store['db']; clock: Clock }, program: Program, partnerId: number): Promise<void> {
  const existing = await findLinkByShortLink(deps.db, demo.shortLink);
  if (!existing) {
    try {
      await createLink(deps, program, { partner_id: partnerId, short_link: demo.shortLink }, systemActor);
      return;
    } catch (error) {
      // Another process seeding at the same moment took the name: check what it made.
      if (error instanceof ServiceError && error.status === 409) return ensureLink(deps, program, partnerId);
      throw error;
    }
  }
  if (existing.program_id !== program.id || existing.partner_id !== partnerId) {
    throw new Error(
      `referral link ${demo.shortLink} already belongs to program ${existing.program_id}; use a fresh DATABASE_URL for the demo`,
    );
  }
  if (existing.enabled !== 1) await setProgramLinkEnabled(deps, program, { id: existing.id }, { enabled: true }, systemActor);
}
