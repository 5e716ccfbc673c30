/**
 * ESLint rule `paykit/compat-static`: a static member of a web platform interface (`AbortSignal.any`,
 * `AbortSignal.timeout`, `URL.canParse`, `Response.json`, …) used where a supported browser lacks it.
 *
 * Why a rule of our own: eslint-plugin-compat and @koddsson/eslint-plugin-tscompat both read MDN's
 * browser-compat-data, which names these members `<name>_static`, and neither looks such names up
 * (amilajack/eslint-plugin-compat#673, amilajack/ast-metadata-inferer#169): `AbortSignal.any`, which kept Safari
 * below 17.4 from confirming any payment, passed both. This rule reads the same data for exactly that gap, on
 * `Global.member` where `Global` is a global (never a local binding of that name), so it works on TypeScript
 * sources and on minified bundles alike. A use that is itself a feature test (`typeof X.y`, `if (X.y)`,
 * `X.y && …`, `X.y ? … : …`, `'y' in X`) is not reported.
 *
 * Option: `{ browsers: string[] }`, browserslist queries (the elements' package.json field).
 */
import browserslist from 'browserslist';
import { createRequire } from 'node:module';

const bcd = createRequire(import.meta.url)('@mdn/browser-compat-data');

/** browserslist's names to browser-compat-data's, with the names people read. */
const BROWSERS = {
  chrome: ['chrome', 'Chrome'],
  and_chr: ['chrome_android', 'Chrome for Android'],
  edge: ['edge', 'Edge'],
  firefox: ['firefox', 'Firefox'],
  and_ff: ['firefox_android', 'Firefox for Android'],
  safari: ['safari', 'Safari'],
  ios_saf: ['safari_ios', 'iOS Safari'],
  samsung: ['samsunginternet_android', 'Samsung Internet'],
  android: ['webview_android', 'Android WebView'],
  opera: ['opera', 'Opera'],
  op_mob: ['opera_android', 'Opera for Android'],
};

/** `'15.4'` -> `[15, 4]`; browserslist's ranges (`'15.6-15.8'`) by their first version. */
const parse = (version) =>
  String(version)
    .replace(/^≤/, '')
    .split('-')[0]
    .split('.')
    .map((part) => Number.parseInt(part, 10) || 0);

/** a < b, version by version. */
function older(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  }
  return false;
}

/** The oldest version of each browser the queries select, by browser-compat-data's name. */
export function oldestVersions(queries) {
  const oldest = new Map();
  for (const entry of browserslist(queries)) {
    const [name, version] = entry.split(' ');
    const known = BROWSERS[name];
    if (!known || version === 'TP') continue;
    const current = oldest.get(known[0]);
    if (!current || older(parse(version), current.version))
      oldest.set(known[0], { version: parse(version), label: `${known[1]} ${version}` });
  }
  return oldest;
}

/** The first version of `browser` with the feature (`support` is browser-compat-data's), or undefined if none. */
function addedIn(support) {
  const statements = Array.isArray(support) ? support : [support];
  const usable = statements.find((s) => s && !s.prefix && !s.alternative_name && !s.flags);
  const added = usable?.version_added;
  if (added === true) return [0];
  if (typeof added !== 'string' || added === 'preview') return undefined;
  return parse(added);
}

/**
 * The supported browsers that lack `Global.member` (a `_static` entry of browser-compat-data's `api`), as
 * `'Safari 15.4 (from 17.4)'`; empty when all have it or the data does not know the member.
 */
export function missingStatic(oldest, global, member) {
  const compat = bcd.api[global]?.[`${member}_static`]?.__compat;
  if (!compat) return [];
  const missing = [];
  for (const [browser, { version, label }] of oldest) {
    const support = compat.support[browser];
    if (!support) continue;
    const added = addedIn(support);
    if (!added) missing.push(`${label} (not at all)`);
    else if (older(version, added)) missing.push(`${label} (from ${added.join('.')})`);
  }
  return missing;
}

/** True when `node` is only tested for, not used: `typeof X.y`, `if (X.y)`, `X.y && …`, `X.y ? … : …`. */
function isFeatureTest(node) {
  const parent = node.parent;
  if (!parent) return false;
  if (parent.type === 'UnaryExpression' && parent.operator === 'typeof') return true;
  if ((parent.type === 'IfStatement' || parent.type === 'ConditionalExpression') && parent.test === node) return true;
  if (parent.type === 'LogicalExpression' && parent.left === node) return true;
  if (parent.type === 'UnaryExpression' && parent.operator === '!') return true;
  return false;
}

/** @type {import('eslint').Rule.RuleModule} */
export const compatStatic = {
  meta: {
    type: 'problem',
    docs: { description: 'Static members of web APIs that a supported browser lacks (browser-compat-data `_static`).' },
    schema: [
      {
        type: 'object',
        properties: { browsers: { type: 'array', items: { type: 'string' } } },
        required: ['browsers'],
        additionalProperties: false,
      },
    ],
    messages: { missing: '{{name}}() is not in every supported browser: missing in {{browsers}}.' },
  },
  create(context) {
    const oldest = oldestVersions(context.options[0].browsers);
    return {
      MemberExpression(node) {
        if (node.computed || node.object.type !== 'Identifier' || node.property.type !== 'Identifier') return;
        const global = node.object.name;
        if (!bcd.api[global]) return;
        // A local binding of that name (an import, a parameter) is not the global.
        const scope = context.sourceCode.getScope(node);
        const reference = scope.references.find((r) => r.identifier === node.object);
        if (reference?.resolved && reference.resolved.defs.length > 0) return;
        if (isFeatureTest(node)) return;
        const missing = missingStatic(oldest, global, node.property.name);
        if (missing.length)
          context.report({
            node,
            messageId: 'missing',
            data: { name: `${global}.${node.property.name}`, browsers: missing.join(', ') },
          });
      },
    };
  },
};

/** The local plugin, for `plugins: { paykit }` in eslint.config.js. */
export default { rules: { 'compat-static': compatStatic } };
