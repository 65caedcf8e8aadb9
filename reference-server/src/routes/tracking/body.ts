import type { TestMode } from '../../domain/tracking/test-mode';

export type Body = Record<string, unknown>;

/** The JSON body as an object; anything else reads as empty, so the route's own "is required" message answers. */
export function objectBody(body: unknown): Body {
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};
}

/** A non-empty string member, else undefined. */
export function stringField(body: Body, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `additional_data.test_mode` and `additional_data.program_id` (§What the service does, item 6). */
export function testModeOf(body: Body): TestMode {
  const extra = objectBody(body.additional_data);
  const programId = extra.program_id;
  return {
    test: extra.test_mode === true,
    ...(Number.isSafeInteger(programId) && (programId as number) > 0 ? { programId: programId as number } : {}),
  };
}

/** The `Origin` request header, when a browser sent one. */
export function originOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  const origin = headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : undefined;
}
