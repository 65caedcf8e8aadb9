import { fail } from '../../errors/service-error';

/** What a tracking body's `additional_data` says (spec/rules.md "What the service does", item 6). */
export interface TestMode {
  test: boolean;
  /** `additional_data.program_id`, when sent. */
  programId?: number;
}

/**
 * spec/rules.md "Errors" 403: in test mode only, when both a Bearer key and `additional_data.program_id` are sent and name
 * different programs. A browser-mode test event with no key is not checked.
 */
export function checkProgramMatchesKey(mode: TestMode, keyProgramId: number | undefined): void {
  if (!mode.test || keyProgramId === undefined || mode.programId === undefined) return;
  if (mode.programId !== keyProgramId) throw fail('programMismatch');
}
