/**
 * How long to wait, in words a person reads at a glance: `42 seconds`, `about 56 minutes (until 14:32)`, `about
 * 2 hours (until 16:05)`. The clock time is local, 24-hour, and given from a minute on.
 */
export function waitTime(seconds: number, now: Date): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `${whole} second${whole === 1 ? '' : 's'}`;
  const minutes = Math.round(whole / 60);
  const hours = Math.round(whole / 3600);
  const amount = whole < 90 * 60 ? `about ${minutes} minute${minutes === 1 ? '' : 's'}` : `about ${hours} hour${hours === 1 ? '' : 's'}`;
  const at = new Date(now.getTime() + whole * 1000);
  const clock = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return `${amount} (until ${clock})`;
}
