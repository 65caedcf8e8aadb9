/**
 * The value of a string flag exactly as typed. cac (through mri) turns numeric-looking values into numbers
 * (`--name 007` → 7), so the raw argument is read back from argv; the last occurrence wins.
 */
export function stringOption(parsed: unknown, argv: readonly string[], flag: string): string | undefined {
  if (parsed === undefined) return undefined;
  let raw: string | undefined;
  argv.forEach((arg, index) => {
    if (arg === flag && index + 1 < argv.length) raw = argv[index + 1];
    else if (arg.startsWith(`${flag}=`)) raw = arg.slice(flag.length + 1);
  });
  const last: unknown = Array.isArray(parsed) ? parsed.at(-1) : parsed;
  return typeof last === 'string' ? last : (raw ?? String(last));
}
