import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of eslint.config.mjs (`svc/layers`, eslint/layers.mjs), run through ESLint's Node API with the
 * workspace's own configuration. Each planted import is linted as text at a path in its folder: nothing is written to
 * the tree, so nothing can be left behind. Only the layer rule runs (the type-aware rules need the file on disk).
 */

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const sourceRoot = fileURLToPath(new URL('../../src/', import.meta.url));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: repoRoot,
    ruleFilter: ({ ruleId }) => ruleId === 'svc/layers',
    overrideConfig: { languageOptions: { parserOptions: { project: false, program: null, projectService: false } } },
  });
});

async function lint(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: `${sourceRoot}${file}` });
  return result!.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

/** Per unit: imports the layers refuse, and ones they allow, in a file of that unit (`at`, else `<unit>/planted.ts`). */
const planted: Record<string, { wrong: string[]; right: string; at?: string }> = {
  routes: {
    wrong: ["import { openStore } from '../store/db';", "import { createKysely } from 'kysely';", "import { Faults } from '../faults';"],
    right: "import { fail } from '../errors/service-error';\nimport type { Store } from '../store/db';",
  },
  'routes/test-control': {
    wrong: ["import { buildApp } from '../../app';", "import { request } from 'node:http';"],
    right: "import { openStore } from '../../store/db';\nimport { Faults } from '../../faults';",
  },
  http: {
    wrong: ["import { openStore } from '../store/db';", "import { x } from '../routes';", "import { buildApp } from '../app';"],
    right: "import type { Store } from '../store/db';\nimport { fail } from '../errors/service-error';",
  },
  domain: {
    at: 'domain/tracking/planted.ts',
    wrong: [
      "import { registerRoutes } from '../../routes';",
      "import { x } from '../../routes/sales';",
      "import { envelope } from '../../http/envelope';",
      "import { buildApp } from '../../app';",
      "import { Dispatcher } from '../../outbound/dispatcher';",
      "import { request } from 'node:http';",
      "import Fastify from 'fastify';",
      "import { sql } from 'kysely';",
      "import { Faults } from '../../faults';",
    ],
    right:
      "import type { Kysely } from 'kysely';\nimport { findSale } from '../../store/sales';\nimport type { Faults } from '../../faults';",
  },
  store: {
    wrong: [
      "import { buildApp } from '../app';",
      "import type { DomainContext } from '../domain/context';",
      "import { x } from '../domain';",
      "import { fail } from '../errors/service-error';",
      "import Fastify from 'fastify';",
    ],
    right: "import { Kysely, sql } from 'kysely';\nimport type { Sale } from './schema';",
  },
  errors: { wrong: ["import type { DomainContext } from '../domain/context';"], right: "import type { components } from '@svc/types';" },
  json: { wrong: ["import { openStore } from '../store/db';"], right: "import { createHash } from 'node:crypto';" },
  dashboard: {
    wrong: ["import { openStore } from '../store/db';", "import { x } from '../routes';"],
    right: "import { readFileSync } from 'node:fs';\nimport type { Store } from '../store/db';",
  },
  'dashboard/client': { wrong: ["import { readFileSync } from 'node:fs';"], right: "import type { operations } from '@svc/types';" },
  outbound: {
    wrong: ["import { x } from '../routes';", "import { openStore } from '../store/db';"],
    right: "import { request } from 'node:https';",
  },
  identity: {
    wrong: ["import { openStore } from '../store/db';", "import { request } from 'node:http';"],
    right: "import * as client from 'openid-client';",
  },
  demo: {
    wrong: ["import { x } from '../routes';", "import { request } from 'node:http';"],
    right: "import { openStore } from '../store/db';",
  },
  testing: { wrong: ["import { openStore } from '../store/db';"], right: "import Ajv from 'ajv/dist/2020.js';" },
};

describe('layer rules (eslint.config.mjs, svc/layers)', () => {
  it('has planted imports for every folder of src/', () => {
    const folders = readdirSync(sourceRoot, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !(folder in planted))).toEqual([]);
  });

  for (const [unit, { wrong, right, at = `${unit}/planted.ts` }] of Object.entries(planted)) {
    describe(`src/${unit}`, () => {
      for (const code of wrong) {
        it(`refuses ${code}`, async () => {
          const messages = await lint(at, code);
          expect(messages).toHaveLength(1);
          expect(messages[0]).toMatchObject({ ruleId: 'svc/layers', message: expect.stringContaining(`src/${unit} may not import`) });
        });
      }
      it('allows what it lists', async () => {
        expect(await lint(at, right)).toEqual([]);
      });
    });
  }

  it('refuses a dynamic import the rule cannot resolve, and checks one it can', async () => {
    expect(await lint('domain/planted.ts', "export const load = (name: string) => import('../' + name);")).toMatchObject([
      { ruleId: 'svc/layers' },
    ]);
    expect(await lint('domain/planted.ts', "export const load = () => import('node:http');")).toMatchObject([{ ruleId: 'svc/layers' }]);
  });

  it('refuses every import from a folder or top-level file that is not listed yet', async () => {
    for (const file of ['planted-folder/x.ts', 'planted-folder/deeper/x.ts', 'planted.ts']) {
      const messages = await lint(file, "import { fail } from './errors/service-error';");
      expect(messages).toMatchObject([{ ruleId: 'svc/layers', message: expect.stringContaining('is not listed in the layer rules') }]);
    }
  });

  it('checks the top-level files too', async () => {
    expect(await lint('clock.ts', "import { buildApp } from './app';")).toMatchObject([{ ruleId: 'svc/layers' }]);
    expect(await lint('services.ts', "import { openStore } from './store/db';")).toMatchObject([
      { message: expect.stringContaining('types only') },
    ]);
    expect(await lint('services.ts', "import type { Store } from './store/db';")).toEqual([]);
  });

  it('lets a unit import within itself and re-exports count as imports', async () => {
    expect(await lint('store/planted.ts', "import { openStore } from './db';\nexport { x } from './sales';")).toEqual([]);
    expect(await lint('store/planted.ts', "export { buildApp } from '../app';")).toMatchObject([{ ruleId: 'svc/layers' }]);
  });
});
