import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type DefaultTheme } from 'vitepress';

const errorsDir = fileURLToPath(new URL('../errors/', import.meta.url));
/** One sidebar entry per error page, sorted by code (the pages are the catalogue's codes, docs/docs.test.ts). */
const errorPages: DefaultTheme.SidebarItem[] = readdirSync(errorsDir)
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.slice(0, -3))
  .sort()
  .map((code) => ({ text: code, link: `/errors/${code}` }));

// The reference server serves the built site at /docs/ (routes/docs-site.ts). Hosting it elsewhere: build with
// SVC_DOCS_BASE=/ (or the path it lives under) and point the server's SVC_DOCS_URL at it.
const base = process.env.SVC_DOCS_BASE ?? '/docs/';

export default defineConfig({
  title: 'svc',
  description: 'Open-source affiliate tracking: a script tag, a typed server SDK and a reference server.',
  base,
  cleanUrls: true,
  lastUpdated: false,
  // Dead links fail the build (VitePress's default); the generated references are checked like the rest.
  ignoreDeadLinks: false,
  // The hash map in a file of its own: no inline script carrying it.
  metaChunk: true,
  srcExclude: ['**/README.md'],
  // The local search index is one chunk by design; it loads on the first search only.
  vite: { build: { chunkSizeWarningLimit: 4096 } },
  themeConfig: {
    search: { provider: 'local' },
    nav: [
      { text: 'Get started', link: '/getting-started/' },
      { text: 'Concepts', link: '/concepts/attribution' },
      { text: 'Errors', link: '/troubleshooting' },
      { text: 'API', link: '/reference/api/' },
      { text: 'SDK', link: '/reference/sdk/' },
    ],
    sidebar: [
      {
        text: 'Get started',
        items: [
          { text: 'Which path is yours', link: '/getting-started/' },
          { text: 'Storefront owner: the script tag', link: '/getting-started/storefront' },
          { text: 'Backend engineer: @svc/server', link: '/getting-started/backend' },
          { text: 'QA engineer: contract tests in CI', link: '/getting-started/qa' },
          { text: 'Operator: run the server', link: '/getting-started/operator' },
        ],
      },
      {
        text: 'Concepts',
        items: [
          { text: 'How attribution works', link: '/concepts/attribution' },
          { text: 'Money: commissions, refunds, payouts', link: '/concepts/money' },
          { text: 'Risk signals: review before money moves', link: '/concepts/risk-signals' },
          { text: 'Test mode and the contract-testing kit', link: '/concepts/test-mode' },
        ],
      },
      {
        text: 'Operating',
        items: [
          { text: 'Deploying to production', link: '/deploying' },
          { text: 'The dashboard', link: '/dashboard' },
          { text: 'Rotating a program API key', link: '/key-rotation' },
          { text: 'Troubleshooting', link: '/troubleshooting' },
          { text: 'Performance notes', link: '/performance-notes' },
        ],
      },
      {
        text: 'Reference',
        items: [
          { text: 'HTTP API', link: '/reference/api/' },
          { text: 'Server SDK (@svc/server)', link: '/reference/sdk/' },
        ],
      },
      { text: 'Error codes', collapsed: true, items: errorPages },
    ],
    outline: { level: [2, 3] },
  },
});
