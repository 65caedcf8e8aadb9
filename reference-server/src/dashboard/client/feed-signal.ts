/**
 * Signals between the events feed (events.ts) and the program's figures (app.ts), each its own script:
 * `svc:events-fresh` when the live feed saw new events (the figures reload), `svc:events-refresh` when an action
 * made events the feed should show now (a test event, a verification run).
 */
const fresh = 'svc:events-fresh';
const refresh = 'svc:events-refresh';

export function announceFreshEvents(programId: number): void {
  document.dispatchEvent(new CustomEvent(fresh, { detail: programId }));
}

export function onFreshEvents(listener: (programId: number) => void): void {
  document.addEventListener(fresh, (event) => {
    if (event instanceof CustomEvent) listener(event.detail as number);
  });
}

export function requestEventsRefresh(): void {
  document.dispatchEvent(new CustomEvent(refresh));
}

export function onEventsRefreshRequest(listener: () => void): void {
  document.addEventListener(refresh, () => listener());
}
