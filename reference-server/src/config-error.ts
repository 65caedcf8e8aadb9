/**
 * A configuration the server cannot start with: the message names the variable (or flag) and the fix, in one line
 * (`throw new ConfigError('VAR must …')`). The programs print it alone, without a stack, and exit with code 2.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Runs `read`; a `ConfigError` it throws ends the process: `<program>: <message>` on stderr, exit code 2. */
export function exitOnConfigError<T>(program: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${program}: ${error.message}\n`);
    process.exit(2);
  }
}
