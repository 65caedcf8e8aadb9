import { cancel, isCancel, select, text } from '@clack/prompts';
import { commissionTypes } from '@svc/types';
import { UsageError } from '../../cli/failures';
import { missingFlags, parseRate, type InitFlags } from './init-values';

const commissionHelp: Record<(typeof commissionTypes)[number], string> = {
  percent: 'a percentage of the first sale',
  fixed: 'a fixed amount (in cents) on the first sale',
  recurring_percent: 'a percentage of every sale',
  recurring_fixed: 'a fixed amount (in cents) on every sale',
};

function answered(value: string | symbol): string {
  if (isCancel(value) || typeof value === 'symbol') {
    cancel('Cancelled: no program was created.');
    throw new UsageError('Cancelled before the program was created.', 'init');
  }
  return value;
}

/** Asks (with @clack/prompts) for the values the flags left out; only called on a terminal. */
export async function promptMissing(flags: InitFlags): Promise<InitFlags> {
  const values = { ...flags };
  const required = (value: string | undefined) => (value === undefined || value.trim() === '' ? 'Required' : undefined);
  for (const key of missingFlags(flags)) {
    if (key === 'name') values.name = answered(await text({ message: 'Program name', placeholder: 'Acme Partners', validate: required }));
    if (key === 'domain')
      values.domain = answered(await text({ message: 'Your site domain', placeholder: 'acme.com', validate: required }));
    if (key === 'commissionType') {
      values.commissionType = answered(
        await select({
          message: 'Commission type',
          options: commissionTypes.map((type) => ({ value: type, label: type, hint: commissionHelp[type] })),
        }),
      );
    }
    if (key === 'commissionRate') {
      values.commissionRate = answered(
        await text({
          message: 'Commission rate (a positive number)',
          placeholder: '20',
          validate: (value) => (parseRate(value ?? '') === undefined ? 'Enter a positive number' : undefined),
        }),
      );
    }
  }
  return values;
}
