/**
 * The queue stub: defines `svc(...)` before the tracker has loaded, so calls made early (a signup on a fast
 * form) are kept and replayed in order instead of throwing `ReferenceError: svc is not defined`.
 */
export const trackerQueueStub = '<script>window.svc=window.svc||function(){(svc.q=svc.q||[]).push(arguments)}</script>';

/** What a storefront pastes before `</head>`: the queue stub, then the tracker tag with its program. */
export function trackerSnippet(baseUrl: string, programId: number | string): string {
  return `${trackerQueueStub}\n<script src="${baseUrl}/js/svc-tracker.js" data-svc-program-id="${programId}" async></script>`;
}
