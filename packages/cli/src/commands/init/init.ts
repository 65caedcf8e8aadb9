import { SvcInternalServerError, type Svc } from '@svc/server';
import type { CliProgramsResponse, Program } from '@svc/types';
import type { Context } from '../../cli/context';
import { ReportedFailure } from '../../cli/failures';
import { loginTokenFor } from '../../config/config-file';
import { describeError, printError } from '../../output/error-report';
import { programLines } from '../programs/program-lines';
import { toInitRequest, type InitFlags } from './init-values';
import { trackerSnippet } from '@svc/types';
import { serverSnippet } from './next-steps';
import { promptMissing } from './prompt-values';

/** `svc init`: creates a program (`POST /cli/init`) and prints its key, once, with the next steps. */
export async function init(ctx: Context, flags: InitFlags): Promise<void> {
  const { output } = ctx;
  const body = toInitRequest(output.interactive ? await promptMissing(flags) : flags);
  const token = await loginTokenFor(ctx.configPath, ctx.baseUrl);
  const client = ctx.client();
  let program: Program;
  try {
    ({ program } = (await client.cli.init(body, token)).data);
  } catch (error) {
    if (!(error instanceof SvcInternalServerError)) throw error;
    await afterFailedInit(ctx, client, token, body.name, error);
    throw new ReportedFailure(error.message);
  }

  const o = output.out;
  output.say(`${o.green('✔')} Created program ${o.bold(program.name)} (id ${program.id}) for ${program.domain}.`);
  output.say();
  output.say(`${o.bold('Program key')} ${o.yellow('(shown once: store it in your server secrets now)')}:`);
  output.say(`  ${o.bold(program.api_token)}`);
  output.say();
  output.say(
    o.bold('1. Add the tracker to every page of your site, before </head> (the first line lets early svc(...) calls wait for it):'),
  );
  for (const line of trackerSnippet(ctx.baseUrl, program.id).split('\n')) output.say(`  ${line}`);
  output.say();
  output.say(o.bold('2. Report signups and sales from your server with @svc/server:'));
  // Not on the npm registry yet: `npm install @svc/server` would fail, so the tarball route is printed instead.
  output.say(
    `  ${o.dim('# @svc/server is not on npm yet: in a clone of svc, `pnpm pack:all` prints the npm install line of its tarballs')}`,
  );
  for (const line of serverSnippet(ctx.baseUrl).split('\n')) output.say(line ? `  ${line}` : '');
  output.next([
    `${o.cyan(`export SVC_API_KEY=${program.api_token}`)}`,
    `${o.cyan('svc test chain')}   send a synthetic click, lead and sale`,
    `${o.cyan('svc status')}       check the integration`,
  ]);
  output.document({
    ok: true,
    program,
    api_key: program.api_token,
    next_steps: { script_tag: trackerSnippet(ctx.baseUrl, program.id), server_snippet: serverSnippet(ctx.baseUrl) },
  });
}

/**
 * spec/rules.md "CLI errors", init 500: "the program may still have been created; list programs before retrying". The
 * listing is shown (and put in the `--json` error document) before the retry advice.
 */
async function afterFailedInit(ctx: Context, client: Svc, token: string, name: string, error: SvcInternalServerError): Promise<void> {
  const { output } = ctx;
  const report = describeError(error, { baseUrl: ctx.baseUrl }) ?? { message: error.message };
  let programs: CliProgramsResponse['data']['programs'] | undefined;
  try {
    programs = (await client.cli.programs(token)).data.programs;
  } catch {
    programs = undefined;
  }
  const named = programs?.filter((program) => program.name === name) ?? [];
  const hint =
    programs === undefined
      ? 'The program may still have been created, and your programs could not be listed: run svc programs before retrying.'
      : named.length
        ? `A program named "${name}" exists (listed above): it may be the one this request created. Do not retry; use it (its key is in the dashboard program settings).`
        : `No program named "${name}" exists, so nothing was created: run the same svc init again.`;
  if (programs) {
    output.note('The program may still have been created. Your programs now:');
    for (const line of programLines(programs, output.err)) output.note(`  ${line}`);
  }
  printError(output, { ...report, hint }, { programs: programs ?? null });
}
