import { parseArgs } from 'node:util';
import { ConfigError } from './config-error';
import { configVariableLines } from './config-variables';

export const usage = `svc-reference-server: the svc service, statefully, on SQLite or PostgreSQL.

Usage: svc-reference-server [--port <n>] [--host <address>]

Options:
  --port <n>          Port to listen on (overrides PORT; default 8787)
  --host <address>    Interface to listen on (overrides HOST; default 127.0.0.1)
  -h, --help          Show this help

Environment (name, default, meaning):
${configVariableLines().join('\n')}

Health checks:
  GET /healthz        200 while the server answers and its database does, else 503 (liveness)
  GET /readyz         503 naming each dependency that is down (database, Redis), 200 otherwise (readiness)

A wrong value stops the start with one line naming the variable, and exit code 2.
Production checklist: docs/deploying.md in the svc repository.
`;

/** The command line of `svc-reference-server`: flags override the matching environment variables. */
export function readServerArgs(argv: string[], env: NodeJS.ProcessEnv): { help: true } | { help: false; env: NodeJS.ProcessEnv } {
  // `pnpm serve -- --port 9000` (npm's habit) hands the `--` on: the flags after it are meant all the same.
  const { values } = parseFlags(argv[0] === '--' ? argv.slice(1) : argv);
  if (values.help) return { help: true };
  if (values.port !== undefined && !/^\d{1,5}$/.test(values.port))
    throw new ConfigError(`--port must be a port number, got ${values.port}`);
  return {
    help: false,
    env: {
      ...env,
      ...(values.port === undefined ? {} : { PORT: values.port }),
      ...(values.host === undefined ? {} : { HOST: values.host }),
    },
  };
}

/** node:util's parseArgs, its refusals (an unknown flag, a missing value) made configuration errors. */
function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    });
  } catch (error) {
    throw new ConfigError(`${(error as Error).message} (svc-reference-server --help lists the options)`);
  }
}
