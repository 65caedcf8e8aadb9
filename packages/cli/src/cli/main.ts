import { cac, type CAC } from 'cac';
import { init } from '../commands/init/init';
import { createLink, disableLink, listLinks, parseLinkAction } from '../commands/links/links';
import { login } from '../commands/login/login';
import { addPartner, listPartners, parsePartnerAction } from '../commands/partners/partners';
import { programs } from '../commands/programs/programs';
import { status } from '../commands/status/status';
import { parseTestKind, testEvent } from '../commands/test/test-event';
import { describeError, printError } from '../output/error-report';
import { Output, type Io } from '../output/output';
import { resolveBaseUrl } from './base-url';
import { createContext, type Context } from './context';
import { didYouMean } from './did-you-mean';
import { exitCodes, ReportedFailure, UsageError } from './failures';
import { programKey, programKeyHint } from './program-key';
import { stringOption } from './string-option';

type Options = Record<string, unknown>;

const loginHint = 'Run svc login (logins are kept per --base-url: sign in to this service first).';

/** Which 401 advice fits each command: the program key, or the login token. */
const unauthorizedHints: Record<string, string> = {
  status: programKeyHint,
  test: programKeyHint,
  partners: programKeyHint,
  links: programKeyHint,
  init: loginHint,
  programs: loginHint,
};

/** Builds the `svc` command table; each action runs one command against a context made from its options. */
function commandTable(
  version: string,
  argv: readonly string[],
  run: (options: Options, command: (ctx: Context) => Promise<void>) => Promise<void>,
): CAC {
  const cli = cac('svc');
  const str = (options: Options, key: string, flag: string) => stringOption(options[key], argv, flag);
  cli.option('--json', 'Print one JSON document on stdout (for scripts)');
  cli.option('--base-url <url>', 'Service address (default: SVC_BASE_URL or http://127.0.0.1:8787)');

  cli
    .command('login', 'Sign in in the browser and store a login token')
    .option('--no-browser', 'Print the sign-in URL instead of opening a browser')
    .example('svc login')
    .example('svc login --no-browser --base-url https://svc.example.com')
    .action((options: Options) => run(options, (ctx) => login(ctx, { browser: options.browser !== false })));

  cli
    .command('init', 'Create a program and print its key and next steps')
    .option('--name <name>', 'Program name')
    .option('--domain <domain>', 'Your site domain')
    .option('--commission-type <type>', 'percent, fixed, recurring_percent or recurring_fixed')
    .option('--commission-rate <rate>', 'A positive number (percent, or cents for fixed types)')
    .example('svc init --name "Acme Partners" --domain acme.com --commission-type percent --commission-rate 20')
    .action((options: Options) =>
      run(options, (ctx) =>
        init(ctx, {
          name: str(options, 'name', '--name'),
          domain: str(options, 'domain', '--domain'),
          commissionType: str(options, 'commissionType', '--commission-type'),
          commissionRate: str(options, 'commissionRate', '--commission-rate'),
        }),
      ),
    );

  cli
    .command('programs', "List your account's programs")
    .example('svc programs --json')
    .action((options: Options) => run(options, (ctx) => programs(ctx)));

  cli
    .command('status', 'Show program health: metrics and readiness')
    .option('--api-key <key>', 'Program key (default: SVC_API_KEY)')
    .example('SVC_API_KEY=svc_live_… svc status')
    .action((options: Options) => run(options, (ctx) => status(ctx, programKey(str(options, 'apiKey', '--api-key'), ctx.env, 'status'))));

  cli
    .command('test <click|lead|sale|chain>', 'Send a test-mode click, lead or sale, or the synthetic chain')
    .option('--api-key <key>', 'Program key (default: SVC_API_KEY)')
    .example('svc test click')
    .example('svc test lead     # joined to the click of the last svc test click')
    .example('svc test chain --json')
    .action((event: string, options: Options) =>
      run(options, (ctx) => {
        const kind = parseTestKind(event);
        return testEvent(ctx, programKey(str(options, 'apiKey', '--api-key'), ctx.env, 'test'), kind);
      }),
    );

  cli
    .command('partners <add|list>', "Add a partner or list the program's partners with their figures")
    .option('--name <name>', 'Partner name (add)')
    .option('--email <email>', 'Invite the partner: signing in with this email shows their own view (add)')
    .option('--api-key <key>', 'Program key (default: SVC_API_KEY)')
    .example('svc partners add --name "Jane Doe" --email jane@example.com')
    .example('svc partners list --json')
    .action((action: string, options: Options) =>
      run(options, (ctx) => {
        const chosen = parsePartnerAction(action);
        const key = programKey(str(options, 'apiKey', '--api-key'), ctx.env, 'partners');
        if (chosen === 'list') return listPartners(ctx, key);
        return addPartner(ctx, key, { name: str(options, 'name', '--name'), email: str(options, 'email', '--email') });
      }),
    );

  cli
    .command('links <create|list|disable> [short_link]', 'Create, list or disable referral links')
    .option('--partner <id>', 'Partner id (create; filters list)')
    .option('--short-link <name>', 'The ?aff= value: 3 to 64 letters, digits, _ or - (create; generated when absent)')
    .option('--api-key <key>', 'Program key (default: SVC_API_KEY)')
    .example('svc links create --partner 3 --short-link jane')
    .example('svc links list --partner 3')
    .example('svc links disable jane')
    .action((action: string, shortLink: string | undefined, options: Options) =>
      run(options, (ctx) => {
        const chosen = parseLinkAction(action);
        const key = programKey(str(options, 'apiKey', '--api-key'), ctx.env, 'links');
        const partner = str(options, 'partner', '--partner');
        if (chosen === 'list') return listLinks(ctx, key, { partner });
        if (chosen === 'disable') return disableLink(ctx, key, shortLink);
        return createLink(ctx, key, { partner, shortLink: str(options, 'shortLink', '--short-link') });
      }),
    );

  cli.help((sections) => commandHelp(cli, sections));
  cli.version(version);
  // cac gives every `--no-*` flag `default: true` and prints "(default: true)" beside it, which reads as if the
  // flag were on by default. Without the default, an absent flag leaves the value undefined (not `false`).
  for (const command of [cli.globalCommand, ...cli.commands]) {
    for (const option of command.options) if (option.negated) option.config.default = undefined;
  }
  return cli;
}

type HelpSection = { title?: string; body: string };

/** What `svc <command> --help` adds to cac's help, under the usage line: the command's description, and more. */
const commandDetails: Record<string, HelpSection[]> = {
  test: [
    {
      title: 'Events',
      body: [
        "  click   a test click through the program's test link; svc keeps its click_id for the next test lead",
        '  lead    a test signup, joined to the click of your last svc test click (a new test customer without one)',
        '  sale    a test sale of the customer of your last svc test lead (no commission in test mode)',
        '  chain   click → lead → sale in one request (at most 10 per program per hour)',
      ].join('\n'),
    },
  ],
};

/** cac prints a command's usage, options and examples but not its description: added under the usage line. */
function commandHelp(cli: CAC, sections: HelpSection[]): HelpSection[] {
  const command = cli.matchedCommand;
  if (!command) return sections;
  const usage = sections.findIndex((section) => section.title === 'Usage');
  const extra = [{ body: command.description }, ...(commandDetails[command.name] ?? [])];
  return [...sections.slice(0, usage + 1), ...extra, ...sections.slice(usage + 1)];
}

/** cac's camel-casing of a flag name (`api-key` → `apiKey`). */
const camelCase = (name: string) => name.replaceAll(/([a-z])-([a-z])/g, (_, before: string, after: string) => before + after.toUpperCase());

/** The long flags a command takes (its own and the global ones), as typed: `--api-key`, `--no-browser`. */
function flagsOf(cli: CAC): string[] {
  const options = [...(cli.matchedCommand?.options ?? []), ...cli.globalCommand.options];
  return options
    .flatMap((option) => option.rawName.split(',').map((name) => name.trim().split(' ')[0]!))
    .filter((name) => name.startsWith('--'));
}

/** Runs `svc` with `argv` (without node and the script) and returns the exit code: 0 ok, 1 failed, 2 usage. */
export async function main(args: readonly string[], io: Io, version: string): Promise<number> {
  const argv = ['node', 'svc', ...args];
  let output = new Output(io, args.includes('--json'));
  let baseUrl = '';
  const run = async (options: Options, command: (ctx: Context) => Promise<void>) => {
    output = new Output(io, options.json === true);
    baseUrl = resolveBaseUrl(stringOption(options.baseUrl, argv, '--base-url'), io.env);
    await command(createContext({ baseUrl, output, env: io.env }));
  };
  const cli = commandTable(version, argv, run);
  const commandName = () => cli.matchedCommand?.name ?? '';
  try {
    cli.parse(argv, { run: false });
    if (cli.options.help || (cli.options.version && !cli.matchedCommandName)) return exitCodes.ok;
    if (!cli.matchedCommand) {
      const unknown = cli.args[0];
      const names = cli.commands.map((command) => command.name);
      if (unknown !== undefined) throw new UsageError(`Unknown command "${unknown}".${didYouMean(unknown, names)}`);
      cli.outputHelp();
      return exitCodes.usage;
    }
    await cli.runMatchedCommand();
    return exitCodes.ok;
  } catch (error) {
    const unknownFlag =
      (error as Error | undefined)?.name === 'CACError' && /^Unknown option `--([^`]+)`$/.exec((error as Error).message)?.[1];
    if (unknownFlag) {
      // cac names the flag camel-cased (`--apiKye`): the message shows it as typed (`--api-kye`).
      const typed =
        args.map((arg) => arg.split('=')[0]!).find((arg) => arg.startsWith('--') && camelCase(arg.slice(2)) === unknownFlag) ??
        `--${unknownFlag}`;
      const usage = new UsageError(`Unknown option \`${typed}\`.${didYouMean(typed, flagsOf(cli))}`);
      return report(usage, output, { baseUrl, command: commandName() });
    }
    return report(error, output, { baseUrl, command: commandName() });
  }
}

function report(error: unknown, output: Output, where: { baseUrl: string; command: string }): number {
  if (error instanceof ReportedFailure) return exitCodes.failed;
  // cac's own errors (unknown option, missing value or argument) are usage errors too.
  if (error instanceof UsageError || (error as Error | undefined)?.name === 'CACError') {
    const command = (error instanceof UsageError ? error.command : undefined) ?? where.command;
    const message = (error as Error).message;
    output.note(`${output.err.red(output.err.bold('Error:'))} ${message}`);
    output.note(`  Run ${command ? `svc ${command} --help` : 'svc --help'} for usage.`);
    output.document({ ok: false, error: { message, status: null, code: 'usage', request_id: null } });
    return exitCodes.usage;
  }
  const described = describeError(error, { baseUrl: where.baseUrl, unauthorizedHint: unauthorizedHints[where.command] });
  if (!described) throw error;
  printError(output, described);
  return exitCodes.failed;
}
