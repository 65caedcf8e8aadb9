import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs a command and returns its stdout; a failure carries the command's stderr in the message. */
export async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  try {
    const { stdout } = await exec(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`, { cause: error });
  }
}
