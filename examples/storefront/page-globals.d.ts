/** The tracker's page global (`@svc/tracker`'s README): the queue stub in index.html, the tracker once it loaded. */
declare function svc(command: string, ...args: unknown[]): unknown;
