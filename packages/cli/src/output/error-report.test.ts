import { describe, expect, it } from 'vitest';
import { CommandFailure } from '../cli/failures';
import { describeError, printError } from './error-report';
import { Output, type Io } from './output';

function output(json: boolean) {
  const written = { stdout: '', stderr: '' };
  const io: Io = {
    stdout: { isTTY: false, write: (chunk: string) => (written.stdout += chunk) },
    stderr: { isTTY: false, write: (chunk: string) => (written.stderr += chunk) },
    stdin: { isTTY: false },
    env: {},
  };
  return { out: new Output(io, json), written };
}

describe('a failed command links to its code page on the docs site', () => {
  const failure = new CommandFailure('The sign-in link expired.', 'login_expired', 'Run svc login again for a new link.');
  const report = describeError(failure, { baseUrl: 'http://svc.test:8787' })!;

  it("builds the page from the server's base URL", () => {
    expect(report.docsUrl).toBe('http://svc.test:8787/docs/errors/login_expired');
  });

  it('prints it after the hint, and in the --json document as docs_url', () => {
    const human = output(false);
    printError(human.out, report);
    expect(human.written.stderr).toContain(
      '  Run svc login again for a new link.\n  docs:       http://svc.test:8787/docs/errors/login_expired\n',
    );
    const json = output(true);
    printError(json.out, report);
    expect(JSON.parse(json.written.stdout)).toMatchObject({
      ok: false,
      error: { code: 'login_expired', docs_url: 'http://svc.test:8787/docs/errors/login_expired' },
    });
  });
});
