import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createHarness, type Harness } from '../harness';

type ProgramBody = Parameters<Harness['control']['createProgram']>[0];
export type OwnedProgram = Awaited<ReturnType<Harness['control']['createProgram']>>;

/**
 * The dashboard tests' common start: one harness for the file and, before each test, an empty store with one
 * program (Acme on acme.example, plus `settings`) and its owner's dashboard cookie, handed to `use`.
 */
export function withSignedInOwner(settings: ProgramBody, use: (s: { h: Harness; program: OwnedProgram; cookie: string }) => void) {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());
  beforeEach(async () => {
    await h.control.reset();
    const program = await h.control.createProgram({ name: 'Acme', domain: 'acme.example', ...settings });
    use({ h, program, cookie: (await h.control.createDashboardSession(program.account_id)).cookie });
  });
}
