import { originError } from './errors';
import { allowedOriginsOf } from '../../store/programs';
import type { Program } from '../../store/schema';

/**
 * §Authentication rule 6: browser-mode calls (click, lead without a key) must come from an allowed origin.
 * No list allows any origin; a request without `Origin` (not sent by a browser) is not a cross-origin call.
 */
export function checkOrigin(program: Program, origin: string | undefined): void {
  const allowed = allowedOriginsOf(program);
  if (allowed === null || origin === undefined) return;
  if (!allowed.includes(origin)) throw originError(origin);
}
