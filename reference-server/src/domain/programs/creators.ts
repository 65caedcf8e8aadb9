import { ConfigError } from '../../config-error';
import { firstWorkspaceOwnerId, hasAnyWorkspace } from '../../store/new-account';
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema';

/**
 * Who may create workspaces and programs (`SVC_WORKSPACE_CREATORS`, docs/deploying.md): `anyone`, listed emails and
 * `@domain`s, or — unset — only the first account ever to sign in (the bootstrap owner). Everyone else signs in only
 * to what they were invited to. The development sign-in and test control default to `anyone`.
 */
export type WorkspaceCreators = 'anyone' | 'first-account' | { emails: string[]; domains: string[] };

/** The variable's value: `*`, or a comma list of emails and `@domain` entries (lower-cased); unset or blank: undefined. */
export function parseWorkspaceCreators(value: string | undefined): WorkspaceCreators | undefined {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '');
  if (entries.length === 0) return undefined;
  if (entries.includes('*')) return 'anyone';
  const wrong = entries.find((e) => !/^[^\s@]*@[^\s@]+\.[^\s@]+$/.test(e));
  if (wrong !== undefined) throw new ConfigError(`SVC_WORKSPACE_CREATORS holds emails and @domain entries, or *; got ${wrong}`);
  return { emails: entries.filter((e) => !e.startsWith('@')), domains: entries.filter((e) => e.startsWith('@')) };
}

/**
 * Whether this account (or, without `id`, a person signing in for the first time) may create a workspace and
 * programs. The bootstrap owner is whoever owns the oldest workspace, so two first sign-ins at once are decided by
 * the database's order.
 */
export async function mayCreateWorkspace(
  db: Kysely<Database>,
  creators: WorkspaceCreators,
  account: { id?: number; email: string },
): Promise<boolean> {
  if (creators === 'anyone') return true;
  if (creators === 'first-account') {
    if (account.id === undefined) return !(await hasAnyWorkspace(db));
    const owner = await firstWorkspaceOwnerId(db);
    return owner === undefined || owner === account.id;
  }
  const email = account.email.toLowerCase();
  return creators.emails.includes(email) || creators.domains.some((domain) => email.endsWith(domain));
}
