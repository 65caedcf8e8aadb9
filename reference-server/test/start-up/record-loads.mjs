import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import process from 'node:process';

// `node --import ./record-loads.mjs …` with SVC_RECORD_LOADS=<file>: writes to that file every module the process
// loads, ES modules through the hooks as they load and CommonJS modules (which `require` loads past the hooks) at exit.
const file = process.env.SVC_RECORD_LOADS;
if (!file) throw new Error('SVC_RECORD_LOADS must name the file to record into');
register('./record-hooks.mjs', import.meta.url, { data: { file } });
const required = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(file, Object.keys(required).join('\n') + '\n'));
