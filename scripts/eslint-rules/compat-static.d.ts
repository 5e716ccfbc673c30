/** Types of compat-static.js (plain JavaScript, so that eslint.config.js can import it without a build). */
import type { ESLint, Rule } from 'eslint';

/** The rule `paykit/compat-static`. */
export declare const compatStatic: Rule.RuleModule;
/** The oldest version of each browser the browserslist queries select, by browser-compat-data's name. */
export declare function oldestVersions(queries: readonly string[]): Map<string, { version: number[]; label: string }>;
/** The supported browsers that lack `Global.member`, as `'Safari 15.4 (from 17.4)'`. */
export declare function missingStatic(
  oldest: Map<string, { version: number[]; label: string }>,
  global: string,
  member: string,
): string[];
/** The local plugin, for `plugins: { paykit }` in eslint.config.js. */
declare const plugin: ESLint.Plugin;
export default plugin;
