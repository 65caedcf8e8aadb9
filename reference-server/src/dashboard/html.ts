import { dashboardAssetUrl } from './built-assets';

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

/** The shared page frame: one stylesheet, no framework; `scripts` are URLs (dashboardAssetUrl). */
export function page(title: string, body: string, scripts: string[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(dashboardAssetUrl('app.css'))}">
</head>
<body>
${body}
${scripts.map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('\n')}
</body>
</html>
`;
}
