// The spec cites the service rules by heading (`§Limits`), the SDK's comments by file and heading
// (`spec/rules.md "Limits"`), and both mark svc's choices ("**Decision:**"); user docs say the rule itself. Used by the generated references (api-reference.mjs,
// sdk-reference.mjs).
import { readFileSync } from 'node:fs';

/** The headings of spec/rules.md, longest first: the sources cite them as `§Heading`. */
const headings = [...readFileSync(new URL('../../spec/rules.md', import.meta.url), 'utf8').matchAll(/^#{2,3} (.+)$/gm)]
  .map((m) => m[1].trim())
  .sort((a, b) => b.length - a.length);
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const citation = new RegExp(
  `§(${headings.map((h) => escapeRegExp(h).replace(/ /g, '\\s+')).join('|')})(?:/[\\w -]+?(?=[,.;)"]|$))?(?:,? (?:rules?|items?) [\\d, and]+\\d)?`,
  'gm',
);

/** The code's form: the file, the heading in quotes (a subsection after `/`), an optional rule or item number. */
const named = /spec\/rules\.md\s+"([^"/]+)(?:\/[^"]*)?"(?:,? (?:rules?|items?) [\d, and]*\d)?/g;

/** The text without citations of the rules' headings and without "Decision" labels. */
export function withoutCitations(text = '') {
  return text
    .replace(/\*\*Decision\*\*\s*(\([^)]*\))?:?\s*/g, '')
    .replace(/\*\*Decision:\*\*\s*/g, '')
    .replace(/\bDecision:\s*/g, '')
    .replace(/\s*\((?:see |the )?(?:§|spec\/rules\.md\s+")[^)]*\)/g, '')
    .replace(/^(?:§|spec\/rules\.md ")[^.\n]*\.\s*/gm, '')
    .replace(citation, (_all, heading) => `the service rules on ${heading.toLowerCase().replace(/\s+/g, ' ')}`)
    .replace(named, (_all, heading) => `the service rules on ${heading.toLowerCase()}`)
    .replace(/\bDecisions?\b/g, 'choice');
}
