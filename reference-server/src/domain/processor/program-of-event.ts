import { fail } from '../../errors/service-error';
import { findProgramByProcessorAccount } from '../../store/processor-connections';
import { findProgramById } from '../../store/programs';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';

/**
 * Which program a verified event belongs to (spec/openapi.yaml, processorWebhook, "Program").
 * - A Stripe Connect event (`account` present) belongs ONLY to the program bound to that account by the owner's
 *   OAuth consent; an unbound account answers 400, and a `program_id` in its metadata that names another program
 *   is refused (anyone's checkout can carry any metadata, so it never chooses the program).
 * - An event without `account` is the operator's own Stripe account's: only the operator's endpoint secret signs
 *   it, so its `program_id` metadata is trusted. Without a usable one (absent, not a decimal id, or naming no
 *   program) it belongs to none: undefined, answered alike in every case so nothing tells whether a program exists.
 */
export async function programOfEvent(
  deps: Pick<DomainContext, 'db'>,
  account: string | undefined,
  programId: string | undefined,
): Promise<Program | undefined> {
  if (account !== undefined) {
    const program = await findProgramByProcessorAccount(deps.db, account);
    if (!program) throw fail('webhookUnknownAccount');
    if (programId !== undefined && programId !== String(program.id)) throw fail('webhookProgramMismatch');
    return program;
  }
  const id = programIdOf(programId);
  return id === undefined ? undefined : findProgramById(deps.db, id);
}

/** A program id as metadata carries it: decimal digits, no sign, no leading zero. */
function programIdOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^[1-9][0-9]{0,14}$/.test(value)) return undefined;
  return Number(value);
}
