import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/**
 * The frame of every sandbox page: a banner that says this is the sandbox, the page in a `<main>`, and the
 * sandbox stylesheet (`/_assets/sandbox.css`, see styles.ts). `title` goes before "Payments sandbox" in the tab.
 */
export function page(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <meta name="color-scheme" content="light dark" />
        <title>${title} · Payments sandbox</title>
        <link rel="stylesheet" href="/_assets/sandbox.css" />
      </head>
      <body>
        <header class="banner">Payments sandbox: test mode, no real money moves</header>
        <main>${body}</main>
      </body>
    </html>`;
}
