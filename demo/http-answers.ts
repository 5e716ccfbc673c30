/**
 * How the demo's server answers: every HTML page under one strict Content-Security-Policy (built here, so that a
 * page cannot be served without it), plain bodies with `nosniff`, and the policy's violation reports kept for the
 * end-to-end tests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Trusted Types policies a page may create: Lit's everywhere; Vue's runtime also makes one named `vue` (for
 * static template content), so the Vue example allows that name too.
 */
export const POLICIES = { default: 'lit-html', vue: 'lit-html vue' } as const;

/**
 * Keeps a browser's CSP violation report (the latest 100) and prints it: a page of the demo that breaks its own
 * policy in some browser says so where the demo runs, and the end-to-end tests fail on it in every engine.
 */
export function receiveCspReport(req: IncomingMessage, res: ServerResponse, reports: unknown[]): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let report: unknown;
    try {
      report = JSON.parse(Buffer.concat(chunks).toString('utf8').slice(0, 10_000));
    } catch {
      report = null;
    }
    reports.push(report);
    reports.splice(0, Math.max(0, reports.length - 100));
    console.warn(`[demo] a browser reported a Content-Security-Policy violation: ${JSON.stringify(report)}`);
    res.writeHead(204).end();
  });
}

/** A body as it is, with its type and `nosniff`. */
export function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'x-content-type-options': 'nosniff' }).end(body);
}

/**
 * An HTML page under a strict policy: scripts and styles from this origin only, nothing inline, no eval,
 * Trusted Types enforced (Lit's own `lit-html` policy is the one allowed, and Vue's on its example), forms posting only here or to the checkout.
 * A page with the drop-in (`dropIn`) also allows the checkout's drop-in script and its frame, from the checkout's
 * origin only, and paykit's `paykit-drop-in` policy, through which it loads that script. No page may be framed but
 * the shop's embed code (`frames.frameAncestors`: the shop's two origins here), and a page frames only what
 * `frames.frameSrc` names.
 */
export function page(
  res: ServerResponse,
  html: string,
  checkoutOrigin: string,
  referrer = 'strict-origin-when-cross-origin',
  policies: string = POLICIES.default,
  dropIn = false,
  frames: { frameSrc?: string; frameAncestors?: string } = {},
): void {
  res.setHeader(
    'content-security-policy',
    [
      "default-src 'self'",
      dropIn ? `script-src 'self' ${checkoutOrigin}` : "script-src 'self'",
      ...(dropIn ? [`frame-src ${checkoutOrigin}`] : frames.frameSrc ? [`frame-src ${frames.frameSrc}`] : []),
      "style-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      `form-action 'self' ${checkoutOrigin}`,
      "base-uri 'none'",
      "object-src 'none'",
      `frame-ancestors ${frames.frameAncestors ?? "'none'"}`,
      "require-trusted-types-for 'script'",
      `trusted-types ${policies}${dropIn ? ' paykit-drop-in' : ''}`,
      'report-uri /csp-reports',
    ].join('; '),
  );
  // The return page's URL carries a reference (and, on a platform, an OAuth code): it must not leak onwards.
  res.setHeader('referrer-policy', referrer);
  send(res, 200, 'text/html', html);
}
