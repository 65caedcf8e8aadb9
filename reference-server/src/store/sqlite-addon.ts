import type SqliteDatabase from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let options: SqliteDatabase.Options | undefined;

/**
 * better-sqlite3's options naming its compiled addon where its install puts it (`build/Release`). Without them it asks
 * the `bindings` package, which requires a dozen candidate paths in turn until one loads: 7 to 15 ms of the first
 * open (6 ms of CPU), against 1 to 3 ms (docs/performance-notes.md, "Start-up, second pass"). An addon elsewhere (a
 * build of one's own) is still found that way.
 */
export function sqliteAddonOptions(): SqliteDatabase.Options {
  if (options === undefined) {
    const addon = join(
      dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')),
      'build',
      'Release',
      'better_sqlite3.node',
    );
    options = existsSync(addon) ? { nativeBinding: addon } : {};
  }
  return options;
}
