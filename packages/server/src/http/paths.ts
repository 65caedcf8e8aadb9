import type { paths } from '@svc/types';

/** The methods the SDK sends, as `paths` names them. */
export type Method = 'get' | 'post' | 'patch';

/** The routes of spec/openapi.yaml that answer `M`. */
export type PathWith<M extends Method> = { [P in keyof paths]: paths[P] extends Record<M, object> ? P : never }[keyof paths];

type Responses<P extends PathWith<M>, M extends Method> = paths[P][M] extends { responses: infer R } ? R : never;
type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

/**
 * The JSON body of a route's 2xx answers, read from `paths` (as openapi-fetch does), so no caller names it and a
 * change to the spec's answer changes every result type that depends on it.
 */
export type OkBody<P extends PathWith<M>, M extends Method> = {
  [S in keyof Responses<P, M>]: S extends 200 | 201 | 202 ? Json<Responses<P, M>[S]> : never;
}[keyof Responses<P, M>];
