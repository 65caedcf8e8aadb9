import { describe, expect, it } from 'vitest';
import { Output, type Io } from './output';

function io(tty: boolean, env: Record<string, string | undefined> = {}) {
  const written = { stdout: '', stderr: '' };
  const value: Io = {
    stdout: { isTTY: tty, write: (chunk: string) => (written.stdout += chunk) },
    stderr: { isTTY: tty, write: (chunk: string) => (written.stderr += chunk) },
    stdin: { isTTY: tty },
    env,
  };
  return { io: value, written };
}

describe('Output', () => {
  it('prints human text on stdout and no JSON without --json', () => {
    const { io: streams, written } = io(false);
    const output = new Output(streams, false);
    output.say('hello');
    output.note('notice');
    output.document({ ok: true });
    expect(written.stdout).toBe('hello\n');
    expect(written.stderr).toBe('notice\n');
  });

  it('keeps stdout to one JSON document with --json, notices still on stderr', () => {
    const { io: streams, written } = io(false);
    const output = new Output(streams, true);
    output.say('hello');
    output.next(['svc status']);
    output.note('notice');
    output.document({ ok: true, n: 1 });
    expect(JSON.parse(written.stdout)).toEqual({ ok: true, n: 1 });
    expect(written.stderr).toBe('notice\n');
  });

  it('is interactive only with a terminal on stdin and stdout and without --json', () => {
    expect(new Output(io(true).io, false).interactive).toBe(true);
    expect(new Output(io(true).io, true).interactive).toBe(false);
    expect(new Output(io(false).io, false).interactive).toBe(false);
  });

  it('colours a terminal unless NO_COLOR is set', () => {
    const tty = io(true);
    new Output(tty.io, false).say(new Output(tty.io, false).out.green('ok'));
    expect(tty.written.stdout).toContain('\u001b[32m');
    const noColour = io(true, { NO_COLOR: '1' });
    const output = new Output(noColour.io, false);
    output.say(output.out.green('ok'));
    expect(noColour.written.stdout).toBe('ok\n');
  });
});
