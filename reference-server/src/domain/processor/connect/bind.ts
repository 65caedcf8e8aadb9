import { moveProcessorAccount } from '../../../store/processor-connections';
import { isUniqueViolation } from '../../../store/unique-violation';
import { systemActor, type Actor } from '../../audit/actor';
import { recordAudit } from '../../audit/record';
import type { DomainContext } from '../../context';

/**
 * Binds the account Stripe named to the program, moved from any program that held it, with the audit entries in
 * the same transaction: `processor.connected` in this program and `processor.disconnected` in each program that lost
 * the account. Two binds of one account at once: one fails on the UNIQUE column and runs again, so the later wins.
 */
export async function bindProcessorAccount(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  programId: number,
  account: string,
  by: Actor,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.db.transaction().execute(async (trx) => {
        const { previous, movedFrom } = await moveProcessorAccount(trx, programId, account);
        const now = deps.clock.now();
        if (previous !== account) {
          const details = { processor_account: { from: previous, to: account } };
          await recordAudit(trx, { programId, actor: by, action: 'processor.connected', target: `program:${programId}`, details, now });
        }
        // The program that lost the account is another workspace's: its log names no one from this one.
        for (const other of movedFrom) {
          await recordAudit(trx, {
            programId: other,
            actor: systemActor,
            action: 'processor.disconnected',
            target: `program:${other}`,
            details: { processor_account: { from: account, to: null } },
            reason: 'Connected to another program with Connect with Stripe',
            now,
          });
        }
      });
      return;
    } catch (error) {
      if (!isUniqueViolation(error) || attempt === 3) throw error;
    }
  }
}
