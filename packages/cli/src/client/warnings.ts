import type { SvcWarning } from '@svc/server';
import type { Output } from '../output/output';
import { printableDeep } from '../output/printable';

/**
 * Key-rotation notices (spec/rules.md "Authentication" rule 5), printed once per run on stderr however many responses carry
 * them. The `warnings` array itself stays in each `--json` document.
 */
export function rotationNotice(output: Output): (warning: SvcWarning) => void {
  let shown = false;
  return (received) => {
    if (shown) return;
    shown = true;
    const warning = printableDeep(received);
    const first = warning.warnings[0];
    const c = output.err;
    const by = first?.rotate_by ?? warning.sunset ?? 'its deadline';
    output.note(`${c.yellow(c.bold('Warning:'))} ${first?.message ?? 'This program key is marked for rotation.'}`);
    output.note(`  Rotate it by ${by}; after that every request with it fails (401 api_key_rotation_required).`);
    if (first?.hint) output.note(`  ${first.hint}`);
    const docs = first?.docs_url ?? warning.link;
    if (docs) output.note(`  ${docs}`);
  };
}
