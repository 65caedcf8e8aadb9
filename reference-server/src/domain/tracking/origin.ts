import { fail } from '../../errors/service-error';
import { allowedOriginsOf } from '../../store/programs';
import type { Program } from '../../store/schema';
import { originError } from './errors';

/**
 * §Authentication rule 6: browser-mode calls (click, lead without a key) must come from an allowed origin.
 * No list allows any origin. With a list, a call without `Origin` is refused too: browsers always send it on
 * these POSTs, so its absence means a script outside a browser, which the list exists to keep out (a forged
 * lead could otherwise claim a real customer's key; spec/openapi.yaml, TrackingForbidden **Decision**).
 */
export function checkOrigin(program: Program, origin: string | undefined): void {
  const allowed = allowedOriginsOf(program);
  if (allowed === null) return;
  if (origin === undefined) throw fail('originRequired');
  if (!allowed.includes(origin)) throw originError(origin);
}
