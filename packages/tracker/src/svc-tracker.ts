import { createSvc, type Svc } from '@svc/browser';
import { drainQueue, type QueuedCall } from './queue';
import { scriptOptions } from './script-options';

/** The page's one global: the queue stub before load, the command function after. */
interface SvcGlobal {
  (command: string, ...args: unknown[]): unknown;
  q?: QueuedCall[];
  /** Set by the loaded script, so that a second copy does nothing. */
  loaded?: true;
}

declare global {
  interface Window {
    svc?: SvcGlobal;
  }
}

type Callback = (result: unknown) => void;

/**
 * `svc(command, ...args)` calls the method of that name: `signup`, `consent`, `trackClick`, `getClickId`.
 * The last argument may be a callback, which gets the result (for calls queued before the script loaded).
 * Every call but a plain `getClickId` runs after the landing click has settled, so a `signup` made while it is in
 * flight (queued by the stub, or called at once on a one-page form) carries that click's id (README, "Early calls").
 */
function commands(svc: Svc, landed: Promise<unknown>): SvcGlobal {
  return (command: string, ...args: unknown[]) => {
    const callback = typeof args[args.length - 1] === 'function' ? (args.pop() as Callback) : undefined;
    // The methods are closures (no `this`), so one may be called detached.
    const method = (svc as unknown as Record<string, ((...args: unknown[]) => unknown) | undefined>)[command];
    const run = () => method && method(...args);
    if (command === 'getClickId' && !callback) return run();
    const result = landed.then(run);
    if (callback) void result.then(callback);
    return result;
  };
}

/** Starts the tracker from its own script tag, unless another copy already did (a second copy does nothing). */
function start(queued: SvcGlobal | undefined): void {
  const script = (document.currentScript || document.querySelector('script[src*="/svc-tracker"]')) as HTMLScriptElement | null;
  if (!script || (queued && queued.loaded)) return;
  const svc = createSvc(scriptOptions(script.dataset, script.src));
  const global = commands(svc, svc.trackClick());
  global.loaded = true;
  window.svc = global;
  drainQueue(queued && queued.q, global);
}

try {
  start(window.svc);
} catch {
  // The tracker never throws into the page.
}
