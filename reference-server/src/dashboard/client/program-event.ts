/**
 * The `svc:program` event: the dashboard script (app.ts) announces the program it opened; the Partners and Webhooks
 * scripts (partners.ts, webhooks.ts) load their sections for it. The program open now is also kept on the page's
 * root element: each script is its own file, and one that runs after the announcement still hears of it.
 */
export interface OpenProgram {
  id: number;
  domain: string;
  role: 'owner' | 'member';
}

const name = 'svc:program';

/** Tells the other scripts that `program` is open now (app.ts). */
export function announceProgram(program: OpenProgram): void {
  document.documentElement.dataset.openProgram = JSON.stringify(program);
  document.dispatchEvent(new CustomEvent(name, { detail: program }));
}

/**
 * Runs `listener` each time a program is opened, and at once for the program open now: the page's scripts load side
 * by side, and the programs list can arrive (and a program open) before a later script runs (seen on a slow load).
 */
export function onProgram(listener: (program: OpenProgram) => void): void {
  document.addEventListener(name, (event) => {
    if (event instanceof CustomEvent) listener(event.detail as OpenProgram);
  });
  const open = document.documentElement.dataset.openProgram;
  if (open) listener(JSON.parse(open) as OpenProgram);
}
