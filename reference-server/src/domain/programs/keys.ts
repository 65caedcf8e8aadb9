import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { findProgramByKeyHash } from '../../store/programs';
import type { Database, Program } from '../../store/schema';
import { sha256Hex } from '../sha256';

/** A key's stored form; every key-bearing request computes it (domain/sha256.ts: the one-shot hash). */
export function hashKey(key: string): string {
  return sha256Hex(key);
}

/** A new program key; only its hash and last four characters are stored (spec/rules.md "Resources/Program", api_token). */
export function newProgramKey(): { key: string; hash: string; last4: string } {
  const key = `svc_live_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), last4: key.slice(-4) };
}

export function maskKey(last4: string): string {
  return `svc_live_…${last4}`;
}

/**
 * The program of a key, found by its SHA-256 hash (keys are stored only hashed). The lookup compares hashes, never
 * the key, so its timing tells an attacker nothing about a valid key.
 */
export function programOfKey(db: Kysely<Database>, key: string): Promise<Program | undefined> {
  return findProgramByKeyHash(db, hashKey(key));
}

/** The `Authorization` header as a request presents a program key (or a login token, which is sent the same way). */
export type BearerHeader = { kind: 'none' } | { kind: 'malformed' } | { kind: 'empty' } | { kind: 'token'; token: string };

/** spec/rules.md "Authentication" rule 2: missing, not starting with `Bearer `, empty token, or a token. */
export function parseBearer(header: string | undefined): BearerHeader {
  if (header === undefined) return { kind: 'none' };
  // HTTP drops trailing whitespace from header values, so `Bearer ` with an empty token arrives as `Bearer`.
  if (header.trimEnd() === 'Bearer') return { kind: 'empty' };
  if (!header.startsWith('Bearer ')) return { kind: 'malformed' };
  const token = header.slice('Bearer '.length).trim();
  return token === '' ? { kind: 'empty' } : { kind: 'token', token };
}
