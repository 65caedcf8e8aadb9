/** Events for `logger` (no telemetry: nothing leaves the process but the request itself). */
export type SvcLogEvent =
  | { type: 'request'; method: string; url: string; attempt: number; requestId: string; headers: Record<string, string> }
  | { type: 'response'; method: string; url: string; attempt: number; requestId: string; status: number; durationMs: number }
  | { type: 'retry'; method: string; url: string; attempt: number; requestId: string; delayMs: number; reason: string };

/** The API key never reaches a log line. */
export function redact(headers: Record<string, string>): Record<string, string> {
  return headers.authorization ? { ...headers, authorization: 'Bearer [redacted]' } : headers;
}
