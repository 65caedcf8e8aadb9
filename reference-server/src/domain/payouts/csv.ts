/**
 * One CSV field (RFC 4180): quoted when it holds a comma, quote or line break. A text starting with `=`, `+`, `-`,
 * `@`, tab or carriage return gets a leading `'` so a spreadsheet does not run a partner-chosen name as a formula.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: (string | number | null)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
