import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The service's rules live in spec/rules.md. The spec and Markdown cite them as a section sign followed by a heading
// of that file; code names the file, `spec/rules.md "Limits"` (see its "How to cite"). This test resolves every
// such citation and keeps the repository from pointing at documents outside it.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const rulesFile = 'spec/rules.md';
const self = relative(root, fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- the headings of spec/rules.md

interface Section {
  heading: string;
  /** Numbers of the entries of a numbered list directly under the heading ("item 7", "rule 5"). */
  numbered: Set<number>;
}

function readSections(): Map<string, Section> {
  const paths = new Map<string, Section>();
  const stack: { level: number; heading: string }[] = [];
  let current: Section | undefined;
  let fenced = false;
  for (const line of readFileSync(join(root, rulesFile), 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    const heading = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = heading[2]!;
      while (stack.length > 0 && stack.at(-1)!.level >= level) stack.pop();
      const parent = stack.at(-1);
      stack.push({ level, heading: text });
      // The title (level 1) names the file, not a rule area.
      if (level === 1) {
        current = undefined;
        continue;
      }
      current = { heading: text, numbered: new Set() };
      paths.set(text, current);
      if (parent && parent.level > 1) paths.set(`${parent.heading}/${text}`, current);
      continue;
    }
    const entry = /^(\d+)\.\s/.exec(line);
    if (entry && current) current.numbered.add(Number(entry[1]));
  }
  return paths;
}

const sections = readSections();
const headingPaths = [...sections.keys()].sort((a, b) => b.length - a.length);

// ---------------------------------------------------------------- the files that may cite

const textExtensions = /\.(ts|tsx|mts|cts|js|mjs|cjs|md|ya?ml|html|css|json)$/;
const skippedDirectories = new Set(['node_modules', 'dist', '.git', 'coverage', 'screenshots']);

function walk(directory: string, recursive: boolean): string[] {
  if (!existsSync(directory)) return [];
  const files: string[] = [];
  for (const name of readdirSync(directory)) {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) {
      if (recursive && !skippedDirectories.has(name)) files.push(...walk(path, true));
    } else if (textExtensions.test(name)) files.push(path);
  }
  return files;
}

const subdirectories = (directory: string) =>
  readdirSync(join(root, directory))
    .filter((name) => statSync(join(root, directory, name)).isDirectory() && !skippedDirectories.has(name))
    .map((name) => `${directory}/${name}`);

const packages = subdirectories('packages');
const examples = subdirectories('examples');
const trees = [
  ...packages.flatMap((p) => [`${p}/src`, `${p}/test`]),
  ...['src', 'test', 'fuzz', 'bench'].map((d) => `reference-server/${d}`),
  ...examples.flatMap((e) => [`${e}/src`, `${e}/test`, `${e}/public`]),
];
const flat = ['.', 'spec', 'docs', 'reference-server', ...packages, ...examples];

const files = [
  ...trees.flatMap((d) => walk(join(root, d), true)),
  ...flat.flatMap((d) => walk(join(root, d), false).filter((f) => /\.(md|ya?ml)$/.test(f))),
]
  .map((f) => relative(root, f))
  .filter((f) => f !== self)
  .filter((f) => !f.startsWith('spec/') || /\.(ya?ml|md)$/.test(f))
  .filter((f) => !f.startsWith('docs/') || f.endsWith('.md'))
  .sort();

const texts = new Map(files.map((f) => [f, readFileSync(join(root, f), 'utf8')]));

// ---------------------------------------------------------------- citations and how they resolve

interface Citation {
  file: string;
  line: number;
  /** The citation as written on its line, up to the end of its clause. */
  shown: string;
  /** What follows the section sign, continued on the next line when the citation runs to the end of its line. */
  text: string;
}

/** What ends the heading part of a citation on its line. */
const clauseEnd = /[,.;:)`'"|]/;
/** Comment and quote markers at the start of a continuation line. */
const continuation = /^\s*(?:\*+|\/\/+|#+|>+|\|)?\s*/;

/** The code's form: the file, then the heading in double quotes, then what follows as after a section sign. */
const named = /spec\/rules\.md "([^"]+)"/g;

function citations(): Citation[] {
  const found: Citation[] = [];
  for (const [file, text] of texts) {
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      for (const match of line.matchAll(named)) {
        const rest = match[1]! + line.slice(match.index + match[0].length);
        found.push({ file, line: index + 1, shown: match[1]!, text: rest });
      }
      for (const match of line.matchAll(/\u00a7(?=\p{L})/gu)) {
        const rest = line.slice(match.index + 1).split('\u00a7')[0]!;
        const runsOn = !clauseEnd.test(rest) && index + 1 < lines.length;
        const next = runsOn ? lines[index + 1]!.replace(continuation, '').split('\u00a7')[0]! : '';
        found.push({
          file,
          line: index + 1,
          shown: rest.split(clauseEnd)[0]!.trim(),
          text: runsOn ? `${rest.trimEnd()} ${next}` : rest,
        });
      }
    });
  }
  return found;
}

/** Why a citation resolves nowhere, or undefined when it names a heading (and, if numbered, an existing entry). */
function problem({ text, shown }: Citation): string | undefined {
  const path = headingPaths.find((p) => text.startsWith(p) && !/^[\p{L}\p{N}]/u.test(text.slice(p.length)));
  if (path === undefined) {
    // A citation cut by a line break that could not be continued: a beginning of a heading.
    if (shown.length > 0 && headingPaths.some((p) => p.startsWith(shown) && p !== shown)) return undefined;
    return `names no heading of ${rulesFile}`;
  }
  const section = sections.get(path)!;
  const rest = text.slice(path.length);
  if (rest.startsWith('/')) {
    const named = shown.startsWith(`${path}/`) ? shown.slice(path.length + 1) : rest.slice(1).split(clauseEnd)[0]!;
    return `"${path}" has no subsection "${named.trim()}"`;
  }
  const numbered = /^[\s,(]*(?:items?|rules?)\s+(\d+(?:\s*(?:,|and|or|to)\s*\d+)*)/.exec(rest);
  if (numbered) {
    const missing = numbered[1]!.match(/\d+/g)!.filter((n) => !section.numbered.has(Number(n)));
    if (section.numbered.size === 0) return `"${path}" has no numbered entries`;
    if (missing.length > 0) return `"${path}" has no entry ${missing.join(', ')}`;
    return undefined;
  }
  if (section.numbered.size > 0 && /^[\s,(]*\d/.test(rest)) return `write "item N" or "rule N" after "${path}"`;
  return undefined;
}

const all = citations();

describe(`${rulesFile}: every citation resolves`, () => {
  it('the rules have the headings the repository is built on', () => {
    for (const heading of [
      'What the service does',
      'Attribution rules',
      'States and transitions',
      'Endpoints/Summary',
      'CLI routes',
      'Dashboard routes',
      'Authentication',
      'Events/Inbound',
      'Errors/Status codes',
      'Errors/Envelopes',
      'Errors/Message catalogue',
      'Limits',
      'Versioning',
    ])
      expect(sections.has(heading), heading).toBe(true);
    expect([...sections.get('What the service does')!.numbered]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect([...sections.get('Authentication')!.numbered]).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect([...sections.get('Versioning')!.numbered]).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('the scan sees the repository', () => {
    expect(files).toContain('ARCHITECTURE.md');
    expect(files).toContain('spec/openapi.yaml');
    expect(files).toContain('reference-server/src/routes/index.ts');
    expect(all.length).toBeGreaterThan(300);
    expect(all.filter((c) => c.file.endsWith('.ts')).length).toBeGreaterThan(200);
  });

  it('code names the file it cites: no section sign in TypeScript but the generated openapi.ts (from the spec)', () => {
    const signs = [...texts]
      .filter(([file]) => file.endsWith('.ts') && file !== 'packages/types/src/openapi.ts')
      .flatMap(([file, text]) => text.split('\n').flatMap((line, index) => (line.includes('\u00a7') ? [`${file}:${index + 1}`] : [])));
    expect(signs, signs.join('\n')).toEqual([]);
  });

  it('every citation names a heading of spec/rules.md (and an existing item or rule)', () => {
    const unresolved = all.flatMap((c) => {
      const why = problem(c);
      return why === undefined ? [] : [`${c.file}:${c.line}: ${c.shown} — ${why}`];
    });
    expect(unresolved, `unresolved citations:\n${unresolved.join('\n')}`).toEqual([]);
  });
});

describe('the repository points at nothing outside it', () => {
  // A reader of the repository can open every document it names: relative paths stay inside the repository, and
  // every Markdown document named by file name is one the repository holds (changelogs are written at release).
  const documents = new Set([...walk(root, true)].filter((f) => f.endsWith('.md')).map((f) => f.split('/').pop()!));
  documents.add('CHANGELOG.md');
  const lineProblems = (file: string, line: string): string[] => {
    const escaping = [...line.matchAll(/(?:\.\.\/)+[\w.-]+/g)]
      .map((m) => m[0])
      .filter((path) => relative(root, join(root, file, '..', path)).startsWith('..'));
    const unknown = [...line.matchAll(/[\w-]+\.md\b/g)].map((m) => m[0]).filter((name) => !documents.has(name));
    return [...escaping.map((path) => `leaves the repository: ${path}`), ...unknown.map((name) => `no such document here: ${name}`)];
  };

  it('no file names a path outside the repository or a document it does not hold', () => {
    // The lockfile's paths are relative to each workspace package, not to the lockfile; it is not read as a document.
    const documentsRead = [...texts].filter(([file]) => file !== 'pnpm-lock.yaml');
    const offending = documentsRead.flatMap(([file, text]) =>
      text.split('\n').flatMap((line, index) => lineProblems(file, line).map((why) => `${file}:${index + 1}: ${why}`)),
    );
    expect(offending, offending.join('\n')).toEqual([]);
  });

  it('catches both kinds of pointer (the check itself can fail)', () => {
    expect(lineProblems('docs/x.md', 'see ../../outside/guide.md')).toEqual([
      'leaves the repository: ../../outside',
      'no such document here: guide.md',
    ]);
    expect(lineProblems('docs/x.md', 'see ../README.md and deploying.md')).toEqual([]);
  });
});
