// @ts-check
import fs from 'node:fs';
import path from 'node:path';

/**
 * `svc/layers`: the reference server's layer rules as an allow-list (ARCHITECTURE.md, "Layer rules").
 *
 * Every file of `reference-server/src` belongs to a unit: the first folder under `src/` (`domain`, `store`, …), or,
 * for a file at the top of `src/`, the file itself (`app.ts`, `clock.ts`, …); `routes/test-control` and
 * `dashboard/client` are units of their own (the longest listed prefix wins). The rule's `units` option says, per
 * unit, what it may import: other units and packages for values (`imports`), and more for types only (`types`). A
 * unit may always import itself. An import is refused when its target is not listed, so a new folder, a new package
 * or a new direction is refused until someone writes it into eslint.config.mjs. Relative imports are resolved to the
 * file or folder they name, so a bare folder (`'../../routes'`) counts as that folder.
 */

/** The unit a path under `src/` belongs to: the longest unit listed in `units` that is a prefix, else its first part. */
function unitOf(relative, units) {
  const parts = relative.split('/');
  for (let n = parts.length; n >= 1; n--) {
    const prefix = parts.slice(0, n).join('/');
    if (n > 1 && Object.hasOwn(units, prefix)) return prefix;
  }
  return parts[0];
}

/** `node:fs/promises` stays whole; `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier) {
  if (specifier.startsWith('node:')) return specifier;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** What a relative import names under `src/`: the unit's path relative to `src/`, or null when outside `src/`. */
function targetUnder(source, fromFile, sourceRoot) {
  const resolved = path.resolve(path.dirname(fromFile), source);
  const relative = path.relative(sourceRoot, resolved).split(path.sep).join('/');
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  const [first, ...rest] = relative.split('/');
  // A top-level file is named with its extension (`'../clock'` → `clock.ts`); a folder by its name.
  if (rest.length === 0 && !isDirectory(path.join(sourceRoot, first))) return first.replace(/\.(ts|js)$/, '') + '.ts';
  return relative;
}

function isDirectory(p) {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** An import declaration or re-export that brings in types only. */
function typeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  return specifiers.length > 0 && specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type');
}

/** @type {import('eslint').Rule.RuleModule} */
export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'The reference server imports only along the layers listed in eslint.config.mjs.' },
    schema: [
      {
        type: 'object',
        properties: { sourceRoot: { type: 'string' }, units: { type: 'object' } },
        required: ['sourceRoot', 'units'],
        additionalProperties: false,
      },
    ],
    messages: {
      unlisted: "{{unit}} is not listed in the layer rules: add it to `layers` in eslint.config.mjs (ARCHITECTURE.md, 'Layer rules').",
      refused:
        "{{unit}} may not import {{kind}} from {{target}} ({{why}}). Allowed: see `layers` in eslint.config.mjs (ARCHITECTURE.md, 'Layer rules').",
    },
  },
  create(context) {
    const { sourceRoot: rootOption, units } = context.options[0];
    const sourceRoot = path.resolve(context.cwd, rootOption);
    const file = context.filename;
    const relative = path.relative(sourceRoot, file).split(path.sep).join('/');
    if (relative.startsWith('..')) return {};
    const parts = relative.split('/');
    const unit = parts.length === 1 ? parts[0] : unitOf(relative, units);
    const rules = units[unit];
    // A file of an unlisted unit is refused whatever it imports, so a new folder waits for its line in the table.
    if (!rules) return { Program: (node) => context.report({ node, messageId: 'unlisted', data: { unit: `src/${unit}` } }) };

    /** @param {import('estree').Node} node @param {string} source @param {boolean} types */
    function check(node, source, types) {
      let target;
      if (source.startsWith('.')) {
        const under = targetUnder(source, file, sourceRoot);
        if (under === null) target = `outside src (${source})`;
        else target = under.includes('/') || !under.endsWith('.ts') ? unitOf(under, units) : under;
        if (target === unit) return;
      } else {
        target = packageOf(source);
      }
      const values = rules.imports ?? [];
      const typesToo = rules.types ?? [];
      if (values.includes(target) || (types && typesToo.includes(target))) return;
      const why = typesToo.includes(target) ? 'types only' : 'not listed for it';
      context.report({
        node,
        messageId: 'refused',
        data: { unit: `src/${unit}`, kind: types ? 'types' : 'values', target, why },
      });
    }

    return {
      ImportDeclaration(node) {
        check(node, String(node.source.value), typeOnly(node));
      },
      ExportNamedDeclaration(node) {
        if (node.source) check(node, String(node.source.value), typeOnly(node));
      },
      ExportAllDeclaration(node) {
        check(node, String(node.source.value), typeOnly(node));
      },
      ImportExpression(node) {
        if (node.source.type === 'Literal' && typeof node.source.value === 'string') check(node, node.source.value, false);
        else
          context.report({
            node,
            messageId: 'refused',
            data: { unit: `src/${unit}`, kind: 'values', target: 'a computed path', why: 'the rule cannot check it' },
          });
      },
    };
  },
};

export default { rules: { layers: layersRule } };
