// The SDK reference (docs/reference/sdk/, written by TypeDoc from @svc/server's types) in the docs' plain words:
// the SDK's comments cite the service rules by heading, which a reader of the site has no use for.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { withoutCitations } from './plain.mjs';

const dir = new URL('../reference/sdk/', import.meta.url);
for (const file of await readdir(dir, { recursive: true })) {
  if (!file.endsWith('.md')) continue;
  const path = new URL(file, dir);
  const text = await readFile(path, 'utf8');
  const plain = withoutCitations(text);
  if (plain !== text) await writeFile(path, plain);
}
