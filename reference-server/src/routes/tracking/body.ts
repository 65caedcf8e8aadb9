import type { TestMode } from '../../domain/tracking/test-mode';
import { objectBody, type JsonObject } from '../../json/fields';

export { objectBody };
export type Body = JsonObject;

/** A non-empty string member, else undefined. */
export function stringField(body: Body, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `additional_data.test_mode` and `additional_data.program_id` (spec/rules.md "What the service does", item 6). */
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
