import type { Context } from '../../cli/context';
import { loginTokenFor } from '../../config/config-file';
import { programLines } from './program-lines';

/** `svc programs`: the signed-in account's programs (`GET /cli/programs`). */
export async function programs(ctx: Context): Promise<void> {
  const { output } = ctx;
  const token = await loginTokenFor(ctx.configPath, ctx.baseUrl);
  const { data } = await ctx.client().cli.programs(token);
  for (const line of programLines(data.programs, output.out)) output.say(line);
  const o = output.out;
  output.next(
    data.programs.length
      ? [
          `${o.cyan('svc status --api-key <key>')}   check a program (a key is shown in full only once, when made: by svc init, or by Regenerate key in the dashboard program settings, which show it masked)`,
        ]
      : [`${o.cyan('svc init')}   create your first program`],
  );
  output.document({ ok: true, programs: data.programs });
}
