import type { FastifyInstance } from 'fastify';
import type { LoginContext } from '../domain/login/context';

/** The sign-in rules' dependencies, read from `app.svc` at call time (the test clock may be swapped). */
export function loginContext(app: FastifyInstance): () => LoginContext {
  return () => ({
    store: app.svc.store,
    clock: app.svc.clock,
    faults: app.svc.faults,
    publicUrl: app.svc.publicUrl,
    serverKey: app.svc.serverKey,
    identityProvider: app.svc.signIn.identityProvider,
    devSignIn: app.svc.signIn.dev,
    workspaceCreators: app.svc.workspaceCreators,
  });
}
