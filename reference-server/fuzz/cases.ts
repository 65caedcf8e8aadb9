import fc from 'fast-check';
import type { FuzzOperation } from './operations';

/**
 * One fuzz case, as plain data drawn by fast-check: everything random about a request is decided here, so
 * a seed (and fast-check's shrink path) replays it exactly. Bodies come from json-schema-faker seeded by
 * `seed`, then bent by the mutation.
 */
export interface FuzzCase {
  op: number;
  auth: AuthVariant;
  body: BodyVariant;
  contentType: ContentTypeVariant;
  /** Picks fixture values (program, link, customer …) and path parameters. */
  pick: number;
  pathParam: PathParamVariant;
  query: QueryVariant;
  origin: string | undefined;
  header: string | undefined;
}

export type AuthVariant =
  /** The credential the operation asks for, so most cases get past authentication to the input checks. */
  | 'matching'
  | 'none'
  | 'ownKey'
  | 'otherKey'
  | 'loginToken'
  | 'dashboard'
  | 'otherDashboard'
  | 'unknownKey'
  | 'emptyBearer'
  | 'basic'
  | 'raw';

export type BodyVariant =
  | { kind: 'schema'; seed: number; fixtures: boolean; optionals: boolean }
  | { kind: 'mutated'; seed: number; fixtures: boolean; mutation: Mutation; key: number; value: unknown }
  | { kind: 'json'; value: unknown }
  | { kind: 'invalidJson'; seed: number; text: string; style: number }
  | { kind: 'huge'; seed: number; size: number; unicode: boolean }
  | { kind: 'oversized'; size: number; seed: number }
  | { kind: 'empty' };

export type Mutation = 'wrongType' | 'drop' | 'extra' | 'null' | 'unicode' | 'hugeString' | 'negative';
export type ContentTypeVariant = 'declared' | 'json' | 'jsonCharset' | 'upperJson' | 'text' | 'xml' | 'form' | 'multipart' | 'missing';
export type PathParamVariant = 'ownProgram' | 'otherProgram' | 'missingProgram' | 'string' | 'negative' | 'huge' | 'unicode';
export type QueryVariant = { kind: 'omit' } | { kind: 'fixture' } | { kind: 'random'; text: string };

const unicodeText = fc.string({ unit: 'grapheme', maxLength: 40 });
const anyText = fc.oneof(fc.string({ maxLength: 30 }), unicodeText, fc.string({ unit: 'binary', maxLength: 20 }));

const body: fc.Arbitrary<BodyVariant> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('schema' as const), seed: fc.nat(), fixtures: fc.boolean(), optionals: fc.boolean() }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('mutated' as const),
      seed: fc.nat(),
      fixtures: fc.boolean(),
      mutation: fc.constantFrom<Mutation>('wrongType', 'drop', 'extra', 'null', 'unicode', 'hugeString', 'negative'),
      key: fc.nat(),
      value: fc.jsonValue({ maxDepth: 2 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('invalidJson' as const), seed: fc.nat(), text: anyText, style: fc.nat({ max: 5 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('huge' as const),
      seed: fc.nat(),
      size: fc.integer({ min: 1_000, max: 60_000 }),
      unicode: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('oversized' as const), size: fc.integer({ min: 65_537, max: 300_000 }), seed: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
);

export function fuzzCase(operations: FuzzOperation[]): fc.Arbitrary<FuzzCase> {
  return fc.record({
    op: fc.nat({ max: operations.length - 1 }),
    auth: fc.constantFrom<AuthVariant>(
      'matching',
      'matching',
      'matching',
      'matching',
      'matching',
      'matching',
      'none',
      'ownKey',
      'otherKey',
      'loginToken',
      'dashboard',
      'dashboard',
      'otherDashboard',
      'unknownKey',
      'emptyBearer',
      'basic',
      'raw',
    ),
    body,
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant<ContentTypeVariant>('declared') },
      {
        weight: 3,
        arbitrary: fc.constantFrom<ContentTypeVariant>('json', 'jsonCharset', 'upperJson', 'text', 'xml', 'form', 'multipart', 'missing'),
      },
    ),
    pick: fc.nat(),
    pathParam: fc.oneof(
      { weight: 4, arbitrary: fc.constant<PathParamVariant>('ownProgram') },
      {
        weight: 3,
        arbitrary: fc.constantFrom<PathParamVariant>('otherProgram', 'missingProgram', 'string', 'negative', 'huge', 'unicode'),
      },
    ),
    query: fc.oneof(
      fc.constant<QueryVariant>({ kind: 'omit' }),
      fc.constant<QueryVariant>({ kind: 'fixture' }),
      fc.record({ kind: fc.constant('random' as const), text: anyText }),
    ),
    origin: fc.option(fc.constantFrom('https://shop.example.com', 'https://evil.example.net', 'null', 'http://localhost:3000'), {
      nil: undefined,
    }),
    header: fc.option(anyText, { nil: undefined }),
  });
}
