import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue } from '@svc/types';
import { describe, expect, it } from 'vitest';

// The catalogue both ways (ARCHITECTURE.md, Invariants): every entry is used by the server, and every error the
// server throws is an entry (`fail(key)` or `failTemplated(key, values)`, whose keys TypeScript checks), never a
// message written on the spot.
const src = fileURLToPath(new URL('..', import.meta.url));
const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'client' ? [] : sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
const files = sources(src).map((path) => ({ path: relative(src, path), text: readFileSync(path, 'utf8') }));

/** The one file that builds a `ServiceError`; everything else calls `fail(key)` or `failTemplated(key, values)`. */
const builders = ['errors/service-error.ts'];

describe('the error catalogue, both ways', () => {
  it('every entry is used by the server', () => {
    const all = files.map((f) => f.text).join('\n');
    const unused = Object.keys(catalogue).filter((key) => !new RegExp(`['"\`]${key}['"\`]|\\.${key}\\b`).test(all));
    expect(unused).toEqual([]);
  });

  it('every error is built from the catalogue: only the known builders construct a ServiceError', () => {
    const building = files.filter((f) => f.text.includes('new ServiceError(')).map((f) => f.path.split('\\').join('/'));
    expect(building.sort()).toEqual([...builders].sort());
    const templating = files.filter((f) => f.text.includes('messageTemplates')).map((f) => f.path);
    expect(templating, 'templated messages come from their catalogue entry').toEqual([]);
  });
});
