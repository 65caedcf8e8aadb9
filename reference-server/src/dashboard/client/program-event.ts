/**
 * The open program: each page under /dashboard/programs/{programId} is about one program, which the server writes on
 * the page's root element (src/dashboard/html.ts); every section script (partners.ts, webhooks.ts, …) loads its
 * section for it through `onProgram`. `announceProgram` still tells them of a program opened later on the same page.
 */
import type { OpenProgram } from '../open-program';

export type { OpenProgram };

const name = 'svc:program';

/** Tells the other scripts that `program` is open now. */
export function announceProgram(program: OpenProgram): void {
  document.documentElement.dataset.openProgram = JSON.stringify(program);
  document.dispatchEvent(new CustomEvent(name, { detail: program }));
}

/**
 * Runs `listener` at once for the program open now (the page's own), and each time another is announced: the
 * page's scripts load side by side, in any order.
 */
export function onProgram(listener: (program: OpenProgram) => void): void {
  document.addEventListener(name, (event) => {
    if (event instanceof CustomEvent) listener(event.detail as OpenProgram);
  });
  const open = document.documentElement.dataset.openProgram;
  if (open) listener(JSON.parse(open) as OpenProgram);
}
