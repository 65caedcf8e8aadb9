import type { Clock } from '../../clock';
import type { Faults } from '../../faults';
import type { Store } from '../../store/db';

/** What the sign-in rules need from the server (passed in; the domain never reaches into Fastify). */
export interface LoginDeps {
  store: Store;
  clock: Clock;
  faults: Faults;
  /** The server's public URL: the id_token issuer and the base of the sign-in link. */
  publicUrl: string;
  /** `secrets.idToken`. */
  idTokenSecret: string;
}

export const issuerOf = (deps: LoginDeps) => ({ secret: deps.idTokenSecret, issuer: deps.publicUrl, now: deps.clock.now() });
