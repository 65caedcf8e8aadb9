import { readFile, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { specPath } from './generate-source';

// Ship the contract itself as JSON so validators (the reference server's contract kit,
// users' own tests) read exactly the document the types were generated from.
const spec = parse(await readFile(specPath, 'utf8'));
await writeFile(new URL('../dist/openapi.json', import.meta.url), JSON.stringify(spec));
