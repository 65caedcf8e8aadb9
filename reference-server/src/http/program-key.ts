import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock';
import type { Store } from '../store/db';
import type { Program } from '../store/schema';
import { parseBearer, programOfKey } from '../domain/programs/keys';
import { fail } from '../errors/service-error';

/** Where the rotation documentation lives (`docs_url`, `Link: <…>; rel="deprecation"`): the docs site's page. */
export const rotationDocsUrl = (request: FastifyRequest): string => `${request.server.svc.docs.url}/key-rotation`;

/** Which message set a route answers with (spec/rules.md "Errors/Message catalogue" and spec/rules.md "CLI errors"). */
export type KeyFlavor = 'sale' | 'refund' | 'readiness' | 'cli';

const messages = {
  sale: { none: 'authMalformed', malformed: 'authMalformed', empty: 'authMissingToken', invalid: 'authInvalidToken' },
  // spec/rules.md "Message catalogue": refund answers `Invalid API token` for an empty token.
  refund: { none: 'authMalformed', malformed: 'authMalformed', empty: 'authInvalidToken', invalid: 'authInvalidToken' },
  readiness: {
    none: 'readinessMalformed',
    malformed: 'readinessMalformed',
    empty: 'readinessMissingToken',
    invalid: 'readinessInvalidToken',
  },
  cli: { none: 'authMalformed', malformed: 'authMalformed', empty: 'authMissingToken', invalid: 'cliAuthInvalidToken' },
} as const;

export interface RotationNotice {
  markedAt: number;
  rotateBy: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request's key is marked for rotation; the response then carries the notice. */
    rotation?: RotationNotice;
    /** The program of the request's key, set by `programKeyHook` before the body is read. */
    keyProgram?: Program;
  }
}

/** Finds the program of a key (domain/programs/keys.ts: by its hash). */
export const findProgramByKey = (store: Store, key: string): Promise<Program | undefined> => programOfKey(store.db, key);

/**
 * Checks a key-bearing request's rotation state (spec/rules.md "Authentication" rule 5): after the deadline the key is refused
 * with the typed envelope; before it the request is marked so the response carries the notice.
 */
export function checkRotation(request: FastifyRequest, program: Program, clock: Clock): void {
  if (program.key_rotate_by === null) return;
  if (clock.now() >= program.key_rotate_by) {
    throw fail('keyRotationRequired', {
      extra: {
        hint: 'A workspace owner can regenerate the key in the dashboard program settings; then update SVC_API_KEY.',
        docs_url: rotationDocsUrl(request),
      },
    });
  }
  request.rotation = { markedAt: program.key_marked_at ?? program.key_rotate_by, rotateBy: program.key_rotate_by };
}

/** Authenticates a request that requires the Bearer program key, with the route's message set. */
export async function requireProgramKey(request: FastifyRequest, store: Store, clock: Clock, flavor: KeyFlavor): Promise<Program> {
  const parsed = parseBearer(request.headers.authorization);
  const set = messages[flavor];
  if (parsed.kind !== 'token') throw fail(set[parsed.kind]);
  const program = await findProgramByKey(store, parsed.token);
  if (!program) throw fail(set.invalid);
  checkRotation(request, program, clock);
  return program;
}

/**
 * A route-level `onRequest` hook that authenticates the program key before the body is read: a request without a
 * usable key answers its 401 (spec/rules.md "Authentication" rule 2, spec/rules.md "Message catalogue") whatever its body holds, and an
 * unauthenticated caller never has its body parsed. It runs after the rate limit (a global `onRequest` hook).
 */
export function programKeyHook(app: FastifyInstance, flavor: KeyFlavor) {
  return async (request: FastifyRequest): Promise<void> => {
    request.keyProgram = await requireProgramKey(request, app.svc.store, app.svc.clock, flavor);
  };
}

/** The program `programKeyHook` authenticated; a route without the hook has none. */
export function keyProgramOf(request: FastifyRequest): Program {
  if (!request.keyProgram) throw new Error(`${request.routeOptions.url} reads the key's program without programKeyHook`);
  return request.keyProgram;
}

export function registerRotationNotices(app: FastifyInstance): void {
  // spec/rules.md "Authentication" rule 5: every response to a marked key carries the notice headers, errors included.
  // Callback hooks, not async ones: every request runs them (http/request-id.ts says why).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.rotation) {
      const { markedAt, rotateBy } = request.rotation;
      reply.header('Deprecation', `@${Math.floor(markedAt / 1000)}`);
      reply.header('Sunset', new Date(rotateBy).toUTCString());
      reply.header('Link', `<${rotationDocsUrl(request)}>; rel="deprecation"`);
    }
    done(null, payload);
  });
  // …and a success body gets a top-level `warnings` array, a sibling of `data`, never inside it.
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (!request.rotation || reply.statusCode >= 300 || typeof payload !== 'object' || payload === null) return done(null, payload);
    done(null, {
      ...(payload as Record<string, unknown>),
      warnings: [rotationWarning(request.rotation.rotateBy, rotationDocsUrl(request))],
    });
  });
}

export function rotationWarning(rotateBy: number, docsUrl: string) {
  return {
    code: 'api_key_rotation_required' as const,
    message: `This API key must be rotated before ${new Date(rotateBy).toISOString()}.`,
    hint: 'A workspace owner can regenerate the key in the dashboard program settings; then update SVC_API_KEY.',
    rotate_by: new Date(rotateBy).toISOString(),
    docs_url: docsUrl,
  };
}
