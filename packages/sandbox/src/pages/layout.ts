import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';

/** The frame of every sandbox page: a banner that says this is the sandbox, and a little CSS. */
export function page(title: string, body: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title} · Payments sandbox</title>
        <link rel="stylesheet" href="/_assets/sandbox.css" />
      </head>
      <body>
        <header class="banner">Payments sandbox — test mode, no real money moves</header>
        <main>${body}</main>
      </body>
    </html>`;
}

/** The stylesheet of the sandbox pages (served as a file so that the pages need no inline style). */
export const SANDBOX_CSS = `
:root { font-family: system-ui, sans-serif; color: #1a1a2e; background: #f5f6fa; }
body { margin: 0; }
.banner { background: #ffb400; color: #1a1a2e; padding: .5rem 1rem; font-weight: 600; text-align: center; }
main { max-width: 28rem; margin: 2rem auto; background: #fff; padding: 1.5rem 2rem; border-radius: 12px;
  box-shadow: 0 2px 12px rgba(0,0,0,.08); }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
.amount { font-size: 2rem; font-weight: 700; margin: .5rem 0 1rem; }
dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
dt { color: #666; }
fieldset { border: 1px solid #ddd; border-radius: 8px; margin: 1rem 0; }
.actions { display: flex; gap: .75rem; margin-top: 1rem; }
button { font: inherit; padding: .6rem 1.2rem; border-radius: 8px; border: 0; cursor: pointer; }
button.pay { background: #2e5bff; color: #fff; }
button.fail { background: #eee; color: #b00020; }
button:focus-visible { outline: 3px solid #1a1a2e; outline-offset: 2px; }
`;
