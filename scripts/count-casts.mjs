/**
 * Counts the type assertions (`x as T`, `<T>x`) in production code: `packages/*\/src` and `demo/`, tests,
 * declaration files and test support left out; `as const` is not a cast and `as unknown as T` counts once.
 * Parsed with TypeScript, so words in comments and strings do not count (a grep does). Issue 21 asks for the
 * count before and after a clean-up: `node scripts/count-casts.mjs` prints the totals, `--files` a count per
 * file, `--list` each cast with its line.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const files = execSync("git ls-files 'packages/*/src/**.ts' 'demo/*.ts'", { encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && !/\.test\.ts$|\.d\.ts$|^packages\/test-support\/|\/test\//.test(file));

let total = 0;
let throughUnknown = 0;
const perFile = new Map();
const list = [];
for (const file of files) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      const isConst = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText(source) === 'const';
      // The inner `as unknown` of `as unknown as T` is the same cast as the outer one.
      const innerOfDouble =
        ts.isAsExpression(node.parent) &&
        node.parent.expression === node &&
        node.type.kind === ts.SyntaxKind.UnknownKeyword;
      if (!isConst && !innerOfDouble) {
        total++;
        perFile.set(file, (perFile.get(file) ?? 0) + 1);
        if (
          ts.isAsExpression(node) &&
          ts.isAsExpression(node.expression) &&
          node.expression.type.kind === ts.SyntaxKind.UnknownKeyword
        )
          throughUnknown++;
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        list.push(`${file}:${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(-90)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (process.argv.includes('--list')) console.log(list.join('\n'));
if (process.argv.includes('--files')) {
  console.log(
    [...perFile]
      .sort((a, b) => b[1] - a[1])
      .map(([file, count]) => `${count}\t${file}`)
      .join('\n'),
  );
}
console.log(
  `${files.length} files, ${total} casts (${throughUnknown} of them 'as unknown as'; 'as const' not counted)`,
);
