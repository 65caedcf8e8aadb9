/** Bad usage: an unknown command or flag, or a missing or invalid value. Exit code 2, nothing is sent. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    /** The command whose `--help` explains the usage (`svc <command> --help`). */
    readonly command?: string,
  ) {
    super(message);
  }
}

/**
 * A command that ran but did not achieve its goal without the service rejecting a request (a login session
 * that expired, a chain with a failed step). Exit code 1, like a failed request.
 */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
  constructor(
    message: string,
    readonly code: string,
    readonly hint?: string,
    /** The request id of the response that showed the failure, when one did. */
    readonly requestId?: string,
  ) {
    super(message);
  }
}

/** A failure the command has already printed in full; only the exit code (1) is left to set. */
export class ReportedFailure extends Error {
  override name = 'ReportedFailure';
}

/** Exit codes (README "Exit codes"). */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;
