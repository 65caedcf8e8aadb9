import { colourEnabled, colours, type Colours } from './colour';

export interface WritableLike {
  write(chunk: string): unknown;
  isTTY?: boolean;
}

/** The process's streams and environment, injected so the output rules are unit-testable. */
export interface Io {
  stdout: WritableLike;
  stderr: WritableLike;
  stdin: { isTTY?: boolean };
  env: Record<string, string | undefined>;
}

/**
 * Where text goes. Human text goes to stdout; with `--json` stdout carries exactly one JSON document, so human
 * text is dropped and only notices (sign-in URL, warnings, errors) reach stderr.
 */
export class Output {
  /** Styles for stdout and stderr; each stream gets colour only when it is a terminal. */
  readonly out: Colours;
  readonly err: Colours;

  constructor(
    readonly io: Io,
    readonly json: boolean,
  ) {
    this.out = colours(colourEnabled(io.stdout, io.env));
    this.err = colours(colourEnabled(io.stderr, io.env));
  }

  /** A line of human output on stdout (dropped in `--json` mode). */
  say(text = ''): void {
    if (!this.json) this.io.stdout.write(`${text}\n`);
  }

  /** A line on stderr, shown in every mode. */
  note(text: string): void {
    this.io.stderr.write(`${text}\n`);
  }

  /** The one JSON document of a `--json` run (ignored otherwise). */
  document(doc: unknown): void {
    if (this.json) this.io.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
  }

  /** Prompts need both ends on a terminal, and never run in `--json` mode. */
  get interactive(): boolean {
    return !this.json && this.io.stdin.isTTY === true && this.io.stdout.isTTY === true;
  }

  /** "Next steps" block: a heading and indented lines. */
  next(steps: string[]): void {
    if (steps.length === 0) return;
    this.say();
    this.say(this.out.bold('Next:'));
    for (const step of steps) this.say(`  ${step}`);
  }
}
