import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  catalogue,
  clientCodeByStatus,
  clientErrorCodes,
  saleErrorCodes,
  typedErrorCodes,
  isFixedEntry,
} from '../packages/types/src/catalogue';
import { currencies } from '../packages/types/src/index';
import { trackerSnippet } from '../packages/types/src/snippet';

const docs = new URL('./', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, docs), 'utf8');
const pages = new Set(readdirSync(new URL('errors/', docs)).map((file) => file.replace(/\.md$/, '')));

/** The CLI's own failures (`new CommandFailure(message, code, …)`, `code: '…'` of the reports it prints), read from its source. */
function cliCodes(): string[] {
  const dir = new URL('../packages/cli/src/', docs);
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  return files.flatMap((file) =>
    [...readFileSync(new URL(file, dir), 'utf8').matchAll(/new CommandFailure\(\s*[^,]+,\s*'([a-z_]+)'|\bcode: '([a-z_]+)'/g)].map(
      (m) => (m[1] ?? m[2])!,
    ),
  );
}

/** Every code an SDK or CLI error can carry: the wire's, the catalogue's client codes, by status, and the CLI's own. */
const codes = [
  ...new Set([
    ...saleErrorCodes,
    ...typedErrorCodes,
    ...clientErrorCodes,
    ...Object.values(clientCodeByStatus),
    'ACCOUNT_BLOCKED', // error.details.code of a suspended account (spec: PlatformErrorDetails)
    'http_status', // the page of `http_<status>`
    ...cliCodes(),
  ]),
];

describe('the docs site', () => {
  it.each(codes)('has a page for the error code %s: what it means, likely cause, fix', (code) => {
    expect(pages.has(code), `docs/errors/${code}.md`).toBe(true);
    const page = read(`errors/${code}.md`);
    expect(page).toMatch(new RegExp(`^# \`${code}\`\n`));
    for (const section of ['## What it means', '## Likely cause', '## Fix']) expect(page).toContain(`\n${section}\n`);
  });

  it('found the CLI codes in its source', () => {
    expect(cliCodes()).toEqual(expect.arrayContaining(['login_expired', 'test_event_failed', 'usage']));
  });

  it('quotes every catalogue message on the page of its code', () => {
    // Templated messages vary with the request: their pages describe them instead.
    for (const entry of Object.values(catalogue).filter(isFixedEntry)) {
      const code = entry.clientCode ?? entry.code ?? clientCodeByStatus[entry.status as keyof typeof clientCodeByStatus];
      expect(read(`errors/${code}.md`), `${code}: ${entry.message}`).toContain(`\`${entry.message}\``);
    }
  });

  it('lists every error page in the table of troubleshooting.md', () => {
    const listed = [...read('troubleshooting.md').matchAll(/^\| \[`([^`]+)`\]\(errors\/([^)]+)\.md\)/gm)].map((m) => {
      expect(m[2]).toBe(m[1]);
      return m[1]!;
    });
    expect(listed.sort()).toEqual([...pages].sort());
  });

  it('speaks plainly: no citations of the rules (section sign or spec/rules.md) and no "Decision" labels in user docs', () => {
    const userDocs = readdirSync(docs, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.md') && !file.includes('node_modules') && !file.includes('.vitepress'))
      .map((file) => `docs/${file}`);
    const readmes = [
      'README.md',
      'reference-server/README.md',
      ...readdirSync(new URL('../packages/', docs)).map((p) => `packages/${p}/README.md`),
    ];
    const offending = [...userDocs, ...readmes].filter((file) =>
      /\u00a7|spec\/rules\.md\s+"|\bDecision\b/.test(readFileSync(new URL(`../${file}`, docs), 'utf8')),
    );
    expect(offending).toEqual([]);
  });

  it('give the storefront the tag exactly as the dashboard does, and name the currencies up front', () => {
    const tag = trackerSnippet('https://svc.example.com', 42);
    const readme = readFileSync(new URL('../README.md', docs), 'utf8');
    expect(readme).toContain(tag);
    expect(read('getting-started/storefront.md')).toContain(tag);
    const intro = readme.slice(0, readme.indexOf('## Quickstart'));
    for (const currency of currencies) expect(intro).toContain(`**${currency}**`);
  });
});
