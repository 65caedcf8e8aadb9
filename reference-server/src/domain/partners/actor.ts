/**
 * Who changes a program's partners, links or commissions, recorded beside the change: the dashboard account, or
 * null for the program key (API, CLI), which names no person.
 */
export interface Actor {
  accountId: number | null;
}

export const programKeyActor: Actor = { accountId: null };
