import { fail, failTemplated, ServiceError } from '../../errors/service-error';
import { findClick } from '../../store/clicks';
import {
  deleteCustomer,
  findCustomerByClick,
  findCustomerByKey,
  insertCustomer,
  leadCustomerRead,
  updateCustomer,
} from '../../store/customers';
import { insertRow, writeTransaction } from '../../store/engine';
import { findProgramById } from '../../store/programs';
import type { Customer, Flag, Program } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import type { DomainContext } from '../context';
import { countLead } from '../metrics/record';
import { queueWebhookEvent } from '../webhooks/events';
import { recordRiskSignals, type RiskSignal } from '../risk/record';
import { leadSignals } from '../risk/signals';
import { findPartnerCached } from '../../store/partners';
import { partnerEmails } from '../../store/risk-events';
import { checkOrigin } from './origin';
import { checkProgramMatchesKey, type TestMode } from './test-mode';

export interface LeadInput {
  /** Server mode: the program of the valid Bearer key. Absent: browser mode. */
  keyProgram?: Program;
  clickId?: string;
  customerKey?: string;
  email?: string;
  mode: TestMode;
  /** The request's `Origin` header (checked in browser mode). */
  origin?: string;
  /** The request's IP (the fast-conversion signal compares a browser lead's with its click's). */
  ip?: string;
}

export interface LeadResult {
  /** A browser-mode lead at a `server_required` program (spec/rules.md "States and transitions"). */
  provisional: boolean;
  /** The partner the lead's customer came through; null when unattributed (no click: a lost cookie or no click_id sent). */
  partnerId: number | null;
  program: Program;
}

/** What one attempt recorded. */
interface Recorded {
  provisional: boolean;
  partnerId: number | null;
}

/**
 * spec/rules.md "POST /api/v1/track/lead" and spec/rules.md "States and transitions": settles, records provisionally, or refuses a lead.
 * Also the settlement path of a provisional lead (server mode, or the processor webhook through it).
 */
export async function recordLead(deps: DomainContext, input: LeadInput): Promise<LeadResult> {
  if (input.clickId === undefined && input.customerKey === undefined) throw fail('leadIdentifierRequired');
  const serverMode = input.keyProgram !== undefined;
  if (serverMode) checkProgramMatchesKey(input.mode, input.keyProgram?.id);
  const program = input.keyProgram ?? (await browserProgram(deps, input));
  if (!serverMode) checkOrigin(program, input.origin);
  // A customer changed by another lead after this one read it (another server's batch, or a batch run request by
  // request): decided again on what that one stored (a second lead is then refused, as if it had come after).
  for (let attempt = 1; ; attempt++) {
    const recorded = await attemptLead(deps, input, program, serverMode);
    // A literal, not a spread of `recorded`: a spread with more properties gave every lead's answer a hidden class of
    // its own (docs/performance-notes.md, "The hot path, seventh pass").
    if (recorded !== null) return { provisional: recorded.provisional, partnerId: recorded.partnerId, program };
    if (attempt === maxAttempts) throw new Error(`the lead's customer changed under it ${maxAttempts} times`);
  }
}

/** Thrown by a lead whose customer changed after it had written (released a key): its writes are rolled back. */
class CustomerChanged extends Error {}

/** How many times a lead is decided again when its customer keeps changing under it (`attemptLead`). */
const maxAttempts = 5;

/** What one attempt's batch answered: recorded, refused (a refusal is answered, not thrown), or its customer changed. */
type Attempt = Recorded | { refused: unknown } | null;

/**
 * Decides and records the lead once, in its batch: its `provisional` flag and partner when recorded, or null when its
 * customer changed since it was read (nothing written then). The batch reads every lead's customers in advance, by key
 * and by click, one statement each (`leadCustomerRead`), and its leads decide in order on what the ones before them
 * changed (store/customers.ts, `customerNow`).
 */
async function attemptLead(deps: DomainContext, input: LeadInput, program: Program, serverMode: boolean): Promise<Recorded | null> {
  const isTest = input.mode.test;
  let attempt: Attempt;
  try {
    // Group commit (store/engine/group-commit.ts): settles once the COMMIT holding this lead returned.
    attempt = await writeTransaction(
      deps.db,
      (trx) => decideAndRecord(deps, trx, input, program, serverMode),
      leadCustomerRead(program.id, isTest, input.customerKey, input.clickId),
    );
  } catch (error) {
    if (error instanceof CustomerChanged) return null;
    // Two identical first leads at once: the key's customer now exists, so this one is a second lead.
    if (isUniqueViolation(error)) throw failTemplated('leadStatusInvalid', ['lead']);
    throw error;
  }
  if (attempt !== null && 'refused' in attempt) throw attempt.refused;
  return attempt;
}

async function decideAndRecord(
  deps: DomainContext,
  trx: DomainContext['db'],
  input: LeadInput,
  program: Program,
  serverMode: boolean,
): Promise<Attempt> {
  const isTest = input.mode.test;
  const provisional = !serverMode && program.lead_auth === 'server_required';
  const now = deps.clock.now();
  let resolved: Resolved;
  let signals: RiskSignal[];
  // Decided before the lead writes anything, and a refusal answered rather than thrown: the batch goes on without it
  // (a throw runs the other requests of the batch again, request by request).
  try {
    resolved = await resolveCustomer(trx, program, input, isTest, serverMode);
    if (resolved.customer) refuseSecondLead(resolved.customer, provisional, serverMode);
    // A click that names nothing in this world, with no known key: nothing to attach the lead to.
    if (!resolved.customer && input.clickId !== undefined) throw fail('leadCustomerNotFound');
    deps.faults.check('lead');
    signals = await riskSignalsOf(deps, trx, { program, customer: resolved.customer, input, provisional, serverMode, now });
  } catch (error) {
    if (error instanceof ServiceError) return { refused: error };
    throw error;
  }
  const { customer, released } = resolved;
  const byBrowser: Flag = serverMode ? 0 : 1;
  if (released && !(await releaseBrowserLead(trx, released, now))) return null;
  if (customer) {
    const changed = await updateCustomer(
      trx,
      customer,
      provisional
        ? // The lead does not settle, does not store the customer key, and does not count or pay.
          { status: 'provisional_lead', provisional: 1, lead_at: now, updated_at: now }
        : {
            status: 'lead',
            provisional: 0,
            lead_by_browser: byBrowser,
            customer_key: input.customerKey ?? customer.customer_key,
            email: input.email ?? customer.email,
            lead_at: customer.lead_at ?? now,
            updated_at: now,
          },
    );
    if (!changed) {
      // The release above is written: thrown, the batch rolls this request back (store/engine/group-commit.ts).
      if (released) throw new CustomerChanged();
      return null;
    }
  } else if (!provisional) {
    // spec/rules.md "Attribution rules", cleared cookie: no click id, the lead is still recorded, unattributed.
    await insertCustomer(trx, {
      program_id: program.id,
      customer_key: input.customerKey,
      click_id: null,
      partner_id: null,
      status: 'lead',
      lead_by_browser: byBrowser,
      is_test: isTest ? 1 : 0,
      email: input.email ?? null,
      lead_at: now,
      converted_at: null,
      clicked_at: null,
      click_ip: null,
      created_at: now,
      updated_at: now,
    });
  }
  await insertRow(trx, 'events', {
    program_id: program.id,
    type: 'lead',
    is_test: isTest ? 1 : 0,
    occurred_at: now,
    partner_id: customer?.partner_id ?? null,
    click_id: customer?.click_id ?? null,
    customer_key: provisional ? null : (input.customerKey ?? customer?.customer_key ?? null),
    provisional: provisional ? 1 : 0,
    sale_id: null,
    amount_cents: null,
    currency: null,
    source: null,
  });
  await recordRiskSignals(trx, program.id, signals, now);
  // A browser lead confirmed by the server was counted when it arrived.
  const counted = customer?.status === 'lead';
  if (!provisional && !counted) {
    await countLead(trx, { programId: program.id, partnerId: customer?.partner_id ?? null, isTest, now });
    // The lead settles now: `lead.created`, in this transaction (spec/openapi.yaml, webhooks `lead.created`).
    await queueWebhookEvent(trx, {
      programId: program.id,
      type: 'lead.created',
      at: now,
      data: {
        program_id: program.id,
        customer_key: input.customerKey ?? customer?.customer_key ?? null,
        click_id: customer?.click_id ?? null,
        partner_id: customer?.partner_id ?? null,
        is_test: isTest,
      },
    });
  }
  // The partner is the customer's as read (a new customer has none): no extra query.
  return { provisional, partnerId: customer?.partner_id ?? null };
}

/**
 * The risk signals of a lead that settles now for a partner (domain/risk/signals.ts), in its batch: the
 * partner from the lookup cache, and the program's partner emails (cached too) only when the lead has an email. A
 * test lead, a provisional one, an unattributed one or one the server confirms (signalled when it arrived) has none.
 */
async function riskSignalsOf(
  deps: DomainContext,
  trx: DomainContext['db'],
  lead: { program: Program; customer: Customer | undefined; input: LeadInput; provisional: boolean; serverMode: boolean; now: number },
): Promise<RiskSignal[]> {
  const { program, customer, input } = lead;
  if (input.mode.test || lead.provisional || !customer || customer.partner_id === null || customer.status === 'lead') return [];
  const partner = await findPartnerCached(deps.db, trx, customer.partner_id);
  if (!partner) return [];
  const email = input.email ?? customer.email;
  return leadSignals({
    program,
    customer,
    partner,
    email,
    customerKey: input.customerKey ?? customer.customer_key,
    ...(lead.serverMode || input.ip === undefined ? {} : { ip: input.ip }),
    now: lead.now,
    partners: email ? await partnerEmails(deps.db, trx, program.id) : [],
  });
}

/**
 * Browser mode: the program of the click, else `additional_data.program_id` (spec/openapi.yaml, trackLead
 * **Decision**). Nothing named: the customer cannot be found.
 */
async function browserProgram(deps: DomainContext, input: LeadInput): Promise<Program> {
  const click = input.clickId === undefined ? undefined : await findClick(deps.db, input.clickId);
  const programId = click?.program_id ?? input.mode.programId;
  const program = programId === undefined ? undefined : await findProgramById(deps.db, programId);
  if (!program) throw fail('leadCustomerNotFound');
  return program;
}

interface Resolved {
  customer?: Customer;
  /** A browser-only lead holding the key, which this server-mode lead takes the key from. */
  released?: Customer;
}

/**
 * The customer by key, else by click; test-mode leads resolve among test records only. A server-mode lead whose
 * key is held by a browser-only lead decides the attribution itself (spec/openapi.yaml, trackLead **Decision**):
 * its own click's customer, or an unattributed customer when it names no click.
 */
async function resolveCustomer(
  trx: DomainContext['db'],
  program: Program,
  input: LeadInput,
  isTest: boolean,
  serverMode: boolean,
): Promise<Resolved> {
  const byKey = input.customerKey === undefined ? undefined : await findCustomerByKey(trx, program.id, isTest, input.customerKey);
  const overridable = byKey !== undefined && serverMode && isBrowserOnlyLead(byKey);
  if (byKey && !overridable) return { customer: byKey };
  if (input.clickId === undefined) return overridable ? { released: byKey } : {};
  const byClick = await customerOfClick(trx, program, input.clickId, isTest);
  if (!overridable) return byClick ? { customer: byClick } : {};
  // The server's click names the same customer, or nothing known: the server confirms the browser lead.
  if (!byClick || byClick.id === byKey.id) return { customer: byKey };
  return { customer: byClick, released: byKey };
}

async function customerOfClick(
  trx: DomainContext['db'],
  program: Program,
  clickId: string,
  isTest: boolean,
): Promise<Customer | undefined> {
  const byClick = await findCustomerByClick(trx, clickId);
  if (!byClick || byClick.is_test !== (isTest ? 1 : 0)) return undefined;
  if (byClick.program_id !== program.id) throw fail('leadWrongProgram');
  return byClick;
}

/** A settled lead that only a browser-mode call vouched for. */
function isBrowserOnlyLead(customer: Customer): boolean {
  return customer.status === 'lead' && customer.lead_by_browser === 1;
}

/**
 * Gives the key back: the customer of the released lead returns to its click, or goes when it had none. False when
 * it changed since it was read (nothing written).
 */
async function releaseBrowserLead(trx: DomainContext['db'], customer: Customer, now: number): Promise<boolean> {
  if (customer.click_id === null) return deleteCustomer(trx, customer);
  return updateCustomer(trx, customer, { status: 'clicked', customer_key: null, lead_at: null, lead_by_browser: 0, updated_at: now });
}

/**
 * spec/rules.md "States and transitions": a customer that already has a lead, or is further on, stays as it is — except that a
 * server-mode lead is never refused because of a browser-only lead.
 */
function refuseSecondLead(customer: Customer, provisional: boolean, serverMode: boolean): void {
  if (serverMode && isBrowserOnlyLead(customer)) return;
  const settled = customer.status === 'lead' || customer.status === 'converted';
  const alreadyProvisional = customer.status === 'provisional_lead' && provisional;
  if (settled || alreadyProvisional) throw failTemplated('leadStatusInvalid', [customer.status]);
}
