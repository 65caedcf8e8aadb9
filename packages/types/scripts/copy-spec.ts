import { readFile, writeFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { specPath } from './generate-source';

// Ship the contract itself as JSON so validators (the reference server's contract kit,
// users' own tests) read exactly the document the types were generated from.
const spec = parse(await readFile(specPath, 'utf8'));
// Written at the package root: `@svc/types/openapi.json` resolves there in every module resolution, node10 (which
// ignores `exports`) included.
await writeFile(new URL('../openapi.json', import.meta.url), JSON.stringify(spec));
