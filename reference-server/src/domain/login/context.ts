import type { Clock } from '../../clock';
import type { Faults } from '../../faults';
import type { Store } from '../../store/db';
import type { WorkspaceCreators } from '../programs/creators';
import type { IdentityProvider } from './identity-provider';

/** What the sign-in rules need from the server (passed in; the domain never reaches into Fastify). */
export interface LoginContext {
  store: Store;
  clock: Clock;
  faults: Faults;
  /** The server's public URL: the dev id_token issuer and the base of the sign-in link. */
  publicUrl: string;
  /** The server secret (`SVC_SECRET_KEY`, or the one kept in the database) that signs dev id_tokens and forms. */
  serverKey: () => Promise<string>;
  /** The OpenID Connect issuer, when `SVC_OIDC_*` is configured (docs/deploying.md). */
  identityProvider: IdentityProvider | undefined;
  /** The email-only development sign-in (`SVC_DEV_SIGN_IN=1`, or test control on). */
  devSignIn: boolean;
  /** Who may create workspaces (`SVC_WORKSPACE_CREATORS`). */
  workspaceCreators: WorkspaceCreators;
}

export const issuerOf = async (deps: LoginContext) => ({ secret: await deps.serverKey(), issuer: deps.publicUrl, now: deps.clock.now() });
