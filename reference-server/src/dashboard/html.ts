import { dashboardAssetUrl } from './built-assets';
import type { OpenProgram } from './open-program';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => entities[c] ?? c);
}

/**
 * The submit button of a form its page's script handles: disabled until the script took the form over
 * (client/dom.ts, `onSubmit`), so a form sent before that never loads the page with its fields in the address.
 */
export function scriptSubmit(label: string): string {
  return `<button type="submit" disabled>${escapeHtml(label)}</button>`;
}

/**
 * The shared page frame: one stylesheet, the favicon, no framework; `scripts` are URLs (dashboardAssetUrl).
 * `openProgram` is the program the address names, written where client/program-event.ts reads it, so every section
 * script learns it before it runs.
 */
export function page(title: string, body: string, scripts: string[] = [], openProgram?: OpenProgram): string {
  const open = openProgram ? ` data-open-program="${escapeHtml(JSON.stringify(openProgram))}"` : '';
  return `<!doctype html>
<html lang="en"${open}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${escapeHtml(dashboardAssetUrl('app.css'))}">
</head>
<body>
${body}
${scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('\n')}
</body>
</html>
`;
}
