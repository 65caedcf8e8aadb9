/**
 * The `svc:program` event: the dashboard script (app.ts) announces the program it opened; the Partners and Webhooks
 * scripts (partners.ts, webhooks.ts) load their sections for it.
 */
export interface OpenProgram {
  id: number;
  domain: string;
  role: 'owner' | 'member';
}

const name = 'svc:program';

export function programEvent(program: OpenProgram): CustomEvent<OpenProgram> {
  return new CustomEvent(name, { detail: program });
}

/** Runs `listener` each time a program is opened. */
export function onProgram(listener: (program: OpenProgram) => void): void {
  document.addEventListener(name, (event) => {
    if (event instanceof CustomEvent) listener(event.detail as OpenProgram);
  });
}
