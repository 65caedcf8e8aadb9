import type { Program } from '../../store/schema';

/**
 * Who changes a program's money or access, recorded beside the change (`decided_by_account_id` and the like) and in
 * the audit log: the signed-in account, the program key (API, CLI: no person, so its masked key), or the system
 * (the demo's seed, the server's own jobs). `label` is what the audit log shows, frozen at the time.
 */
export interface Actor {
  accountId: number | null;
  label: string;
}

export function accountActor(account: { id: number; email: string }): Actor {
  return { accountId: account.id, label: account.email };
}

export function programKeyActor(program: Pick<Program, 'api_key_last4'>): Actor {
  return { accountId: null, label: `api key …${program.api_key_last4}` };
}

export const systemActor: Actor = { accountId: null, label: 'system' };
