import { appendFileSync } from 'node:fs';

// Module customization hooks (node:module `register`), run on the loader's own thread: every module loaded through
// `import`, by its URL, one line each to the file record-loads.mjs names. Written at once: the process may be killed.
let file;

export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  appendFileSync(file, `${url}\n`);
  return nextLoad(url, context);
}
