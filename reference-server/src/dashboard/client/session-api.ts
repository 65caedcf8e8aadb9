/**
 * The calls of the pages' own scripts: as dom.ts `api`, and a 401 (the session ended) goes back to /dashboard,
 * which then offers to sign in.
 */
import { ApiError, api as call } from './dom';

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await call<T>(method, path, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) window.location.href = '/dashboard';
    throw error;
  }
}
