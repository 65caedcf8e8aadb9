import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../src/workspace';

/** The docs a newcomer follows: docs/, every example's and package's README, the root README. */
async function markdownFiles(): Promise<string[]> {
  const inDir = async (dir: string) =>
    (await readdir(join(root, dir), { withFileTypes: true })).flatMap((d) =>
      d.isDirectory() ? [`${dir}/${d.name}/README.md`] : d.name.endsWith('.md') ? [`${dir}/${d.name}`] : [],
    );
  const candidates = [
    'README.md',
    'ARCHITECTURE.md',
    'reference-server/README.md',
    ...(await inDir('docs')),
    ...(await inDir('examples')),
    ...(await inDir('packages')),
  ];
  return candidates.filter((file) => existsSync(join(root, file)));
}

const links = (markdown: string) =>
  [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((href) => !/^[a-z]+:/i.test(href));

describe('docs', () => {
  it('link only to files that exist in the repository', async () => {
    const broken: string[] = [];
    for (const file of await markdownFiles()) {
      for (const href of links(await readFile(join(root, file), 'utf8'))) {
        const path = href.split('#')[0]!;
        if (path && !existsSync(join(root, dirname(file), path))) broken.push(`${file} → ${href}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('have the key-rotation page the server links to in docs_url and the Link header', async () => {
    // The docs site's page (docs/ is the site's root): `${docs url}/key-rotation` is docs/key-rotation.md.
    const source = await readFile(join(root, 'reference-server/src/http/program-key.ts'), 'utf8');
    const page = /rotationDocsUrl = [^\n]*\.docs\.url\}\/([\w-]+)`/.exec(source)?.[1];
    expect(page).toBe('key-rotation');
    expect(await readFile(join(root, `docs/${page}.md`), 'utf8')).toMatch(/^# Rotating a program API key/);
  });

  it('link every section of the troubleshooting page from its table of contents', async () => {
    const page = await readFile(join(root, 'docs/troubleshooting.md'), 'utf8');
    const anchors = [...page.matchAll(/^## (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replace(/ /g, '-'),
    );
    const toc = [...page.matchAll(/^- \[.+\]\(#([^)]+)\)$/gm)].map((m) => m[1]);
    expect(toc).toEqual(anchors);
  });
});
