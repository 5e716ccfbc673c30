/**
 * axe-core in a tab of any engine (./engine-browser.ts): the accessibility rules of WCAG 2.2 A/AA and Deque's best
 * practices, run the way the axe browser extension runs them (shadow roots included, so the paykit elements'
 * insides are checked too), under the page's own Content-Security-Policy.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Tab } from './engine-browser.js';

/** The rule sets run: WCAG 2.0, 2.1 and 2.2 at levels A and AA, and best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** One violated rule on one page, reduced to what a person fixing it needs. */
export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending nodes (a shadow root's node as `host >> inner`). */
  targets: string[];
  /** axe's own summary of the first node ("Fix any of the following: ..."). */
  summary: string;
}

let source: Promise<string> | undefined;

/** axe-core's browser build, read once from node_modules. */
function axeSource(): Promise<string> {
  source ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return source;
}

/** True for the findings the tests refuse: serious and critical ones. */
export const blocking = (finding: AxeFinding): boolean => finding.impact === 'serious' || finding.impact === 'critical';

/**
 * Runs axe on the tab's page once it has loaded and returns every violation, worst first. axe's source is part of
 * the function the automation evaluates in the page (no script element, no eval: the page's Content-Security-Policy
 * allows neither, and governs neither the automation's evaluation). It waits for the document's load (its
 * stylesheets) and its fonts first, as sizes and contrast are read from the laid-out page: without the wait, with
 * axe sent ahead of the page (a trial of a preload script, not kept), the sandbox's clock page was checked before
 * its stylesheet applied, in 2 of 6 runs (target-size: links 17 px high).
 */
export async function runAxeInTab(tab: Pick<Tab, 'run'>): Promise<AxeFinding[]> {
  const findings = await tab.run<AxeFinding[]>(`async () => {
    if (!globalThis.axe) {
      ${await axeSource()}
    }
    if (document.readyState !== 'complete') await new Promise((loaded) => addEventListener('load', loaded, { once: true }));
    await document.fonts.ready;
    const result = await globalThis.axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(TAGS)} }, resultTypes: ['violations'] });
    return result.violations.map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? 'unknown',
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.flat().join(' >> ')),
      summary: violation.nodes[0]?.failureSummary ?? '',
    }));
  }`);
  const order = ['critical', 'serious', 'moderate', 'minor', 'unknown'];
  return findings.sort((a, b) => order.indexOf(a.impact) - order.indexOf(b.impact));
}
