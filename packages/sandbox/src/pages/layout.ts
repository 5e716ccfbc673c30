/**
 * The frame every hosted page of the sandbox is drawn in (banner, stylesheet, icon) and the report address of
 * their Content-Security-Policy, so that each page writes only its own content.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * Where every hosted page's policy reports its violations (`POST /_sandbox/csp-reports`, kept in
 * `context.cspReports`): the end-to-end tests read them in every engine, the pages' own words for what broke.
 */
export const CSP_REPORT = 'report-uri /_sandbox/csp-reports';

/**
 * The frame of every sandbox page: a banner that says this is the sandbox, the page in a `<main>`, and the
 * sandbox stylesheet (`/_assets/sandbox.css`, see styles.ts). `title` goes before "Payments sandbox" in the tab.
 * `wide` widens the column for pages of tables and logs (the dashboard's webhooks); a phone sees no difference.
 * The empty `data:` icon (allowed by each page's `img-src data:`) stands in for `/favicon.ico`: Firefox and
 * WebKit fetch that by themselves when a page names no icon, and `default-src 'none'` blocked and reported it.
 */
export function page(
  title: string,
  body: HtmlEscapedString | Promise<HtmlEscapedString>,
  options: { wide?: boolean } = {},
) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} · Payments sandbox</title>
        <link rel="stylesheet" href="/_assets/sandbox.css" />
        <link rel="icon" href="data:," />
      </head>
      <body>
        <header class="banner">Payments sandbox: test mode, no real money moves</header>
        ${options.wide ? html`<main class="wide">${body}</main>` : html`<main>${body}</main>`}
      </body>
    </html>`;
}
