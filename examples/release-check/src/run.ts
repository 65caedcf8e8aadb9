import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** Runs a command and returns its stdout; a failure carries the command's stderr in the message. */
export async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<string> {
  return (await runWithOutput(command, args, options)).stdout;
}

/** Runs a command and returns both its outputs (warnings go to stderr). */
export async function runWithOutput(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  try {
    return await exec(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const failure = error as Error & { stderr?: string; stdout?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${options.cwd}:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`, {
      cause: error,
    });
  }
}
