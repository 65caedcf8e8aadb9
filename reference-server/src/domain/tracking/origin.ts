import { fail, failTemplated } from '../../errors/service-error';
import { allowedOriginsOf } from '../../store/programs';
import type { Program } from '../../store/schema';

/**
 * The server's own synthetic events (the dashboard's "Send test click" and "Run verification", `svc test`): made
 * by the server for a signed-in member or the program's key, sent by no browser, so the origin rule has nothing to
 * check. Only domain code can pass it: a request's `Origin` header is always a string or absent.
 */
export const ownSyntheticCall = Symbol('own synthetic call');

/** The `Origin` of a browser-mode call, or the server's own synthetic event. */
export type CallOrigin = string | undefined | typeof ownSyntheticCall;

/**
 * spec/rules.md "Authentication" rule 6: browser-mode calls (click, lead without a key) must come from an allowed origin.
 * No list allows any origin. With a list, a call without `Origin` is refused too: browsers always send it on
 * these POSTs, so its absence means a script outside a browser, which the list exists to keep out (a forged
 * lead could otherwise claim a real customer's key; spec/openapi.yaml, TrackingForbidden **Decision**).
 */
export function checkOrigin(program: Program, origin: CallOrigin): void {
  const allowed = allowedOriginsOf(program);
  if (allowed === null || origin === ownSyntheticCall) return;
  if (origin === undefined) throw fail('originRequired');
  if (!allowed.includes(origin)) throw failTemplated('originNotAllowed', [origin]);
}
