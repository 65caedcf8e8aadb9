import SqliteDatabase from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sqliteAddonOptions } from './sqlite-addon';

describe("better-sqlite3's addon, named where its install puts it", () => {
  it('is the file the install built, and a database opens with it', () => {
    const { nativeBinding } = sqliteAddonOptions();
    expect(nativeBinding).toMatch(/better-sqlite3\/build\/Release\/better_sqlite3\.node$/);
    expect(existsSync(nativeBinding as string)).toBe(true);
    const db = new SqliteDatabase(':memory:', sqliteAddonOptions());
    expect(db.prepare('select sqlite_version() as v').get()).toEqual({ v: expect.stringMatching(/^3\./) });
    db.close();
  });
});
