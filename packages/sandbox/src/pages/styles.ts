/**
 * The one stylesheet of the sandbox pages, served as `/_assets/sandbox.css` so that the pages need no inline
 * style under their `style-src 'self'` policy. Light and dark follow the device (`prefers-color-scheme`);
 * every control a finger presses is at least 44 px high (WCAG 2.5.5, Apple's and Google's guidance); colours
 * keep text at 4.5:1 or more in both schemes (checked by the axe test in test/e2e/pages-accessibility.test.ts).
 */
export const SANDBOX_CSS = `
:root {
  color-scheme: light dark;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  line-height: 1.45;
  --bg: #f3f4f8; --surface: #ffffff; --text: #161a24; --muted: #4b5262; --line: #d5d8e1;
  --accent: #2d47d6; --on-accent: #ffffff; --accent-soft: #e8ecff;
  --danger: #a3001b; --danger-soft: #fdecee; --focus: #161a24;
  --banner: #ffc53d; --on-banner: #161a24;
  background: var(--bg); color: var(--text);
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0e1015; --surface: #1a1d25; --text: #eceef3; --muted: #b3b8c5; --line: #3a3f4c;
    --accent: #9fb0ff; --on-accent: #0e1015; --accent-soft: #262c45;
    --danger: #ff9aa8; --danger-soft: #3a1d23; --focus: #eceef3;
  }
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; }
.banner { background: var(--banner); color: var(--on-banner); padding: .5rem 1rem; font-size: .9rem;
  font-weight: 600; text-align: center; }
main { max-width: 30rem; margin: 2rem auto; background: var(--surface); padding: 1.75rem 2rem;
  border-radius: 14px; border: 1px solid var(--line); box-shadow: 0 4px 24px rgba(0, 0, 0, .08); }
@media (max-width: 34rem) {
  main { margin: 0; border-radius: 0; border-width: 0 0 1px; box-shadow: none; padding: 1.25rem 1rem 2rem; }
}
h1 { font-size: 1.35rem; margin: 0 0 1rem; line-height: 1.25; }
.merchant h1 { margin: 0; font-size: 1.15rem; }
h2 { font-size: 1.1rem; margin: 0 0 .5rem; }
p { margin: .5rem 0; }
a { color: var(--accent); text-underline-offset: .15em; }
.muted { color: var(--muted); }
.merchant { display: flex; align-items: center; gap: .75rem; margin: 0 0 1.25rem; }
.merchant-mark { display: grid; place-items: center; width: 2.5rem; height: 2.5rem; flex: none; border-radius: 50%;
  background: var(--accent); color: var(--on-accent); font-weight: 700; font-size: 1.1rem; }
.amount { font-size: 2.25rem; font-weight: 700; margin: .25rem 0 .25rem; letter-spacing: -.01em;
  font-variant-numeric: tabular-nums; }
.summary { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: .75rem 0 1.25rem; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; overflow-wrap: anywhere; }
fieldset { border: 0; padding: 0; margin: 1rem 0; min-width: 0; }
legend { font-weight: 600; padding: 0; margin-bottom: .5rem; }
.choice { display: flex; align-items: center; gap: .75rem; min-height: 44px; padding: .6rem .9rem;
  margin: 0 0 .5rem; border: 1px solid var(--line); border-radius: 10px; cursor: pointer; }
.choice:has(input:checked) { border-color: var(--accent); background: var(--accent-soft); }
.choice input { width: 1.25rem; height: 1.25rem; margin: 0; flex: none; accent-color: var(--accent); }
.choice-text { display: flex; flex-direction: column; }
.choice-hint { color: var(--muted); font-size: .875rem; }
.field { display: flex; flex-direction: column; gap: .35rem; margin: 0 0 1rem; font-weight: 600; }
input[type="email"], input[type="text"], input[type="url"], input[type="number"], input[type="datetime-local"],
select { font: inherit; font-weight: 400; min-height: 44px; padding: .5rem .75rem;
  border: 1px solid var(--muted); border-radius: 8px; background: var(--surface); color: var(--text); width: 100%; }
.actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 1.25rem; }
.actions > * { flex: 1 1 10rem; }
button, .button { font: inherit; font-weight: 600; min-height: 44px; padding: .6rem 1.2rem; border-radius: 10px;
  border: 1px solid transparent; cursor: pointer; text-align: center; text-decoration: none;
  display: inline-flex; align-items: center; justify-content: center; }
button.pay { background: var(--accent); color: var(--on-accent); }
button.fail { background: var(--danger-soft); color: var(--danger); border-color: var(--danger); }
button.secondary, .button.secondary { background: transparent; color: var(--accent); border-color: var(--line); }
button.link { background: none; border: 0; padding: .6rem .25rem; color: var(--accent); text-decoration: underline;
  font-weight: 400; }
button:hover, .button:hover { filter: brightness(1.06); }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.back { margin-top: 1.25rem; text-align: center; }
.back a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 .5rem; }
.note { font-size: .875rem; color: var(--muted); border-top: 1px solid var(--line); margin-top: 1.5rem;
  padding-top: .75rem; }
.card { border: 1px solid var(--line); border-radius: 12px; padding: 1rem 1.25rem; margin: 1rem 0; }
.card ul { margin: .25rem 0 .75rem; padding-left: 1.25rem; }
.users { list-style: none; padding: 0; margin: 0; }
.users .choice { width: 100%; justify-content: flex-start; text-align: left; background: var(--surface);
  color: var(--text); font-weight: 400; }
.signed-in { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .75rem; color: var(--muted);
  margin: 1rem 0 0; }
[role="alert"] { border-left: 4px solid var(--danger); padding: .5rem .75rem; background: var(--danger-soft); }
/* The dashboard's pages: links between them, keys to copy, forms shown again with their errors, delivery logs. */
main.wide { max-width: 52rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: 1rem; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h5 { font-size: .875rem; margin: .75rem 0 .25rem; }
code, pre, .key { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .875rem; }
code { overflow-wrap: anywhere; }
.dashboard-nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: .25rem .5rem; padding: 0; margin: 0 0 1rem; }
.dashboard-nav a { display: inline-flex; align-items: center; min-height: 44px; padding: 0 .75rem; border-radius: 8px; }
.dashboard-nav a[aria-current="page"] { background: var(--accent-soft); font-weight: 600; text-decoration: none; }
.hint { font-weight: 400; font-size: .875rem; color: var(--muted); margin: 0; }
.field-error { font-weight: 600; color: var(--danger); margin: 0; }
.notice[role="status"] { border-left: 4px solid var(--accent); padding: .5rem .75rem; background: var(--accent-soft); }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
  clip-path: inset(50%); white-space: nowrap; border: 0; }
.plain { list-style: none; padding: 0; margin: 0; }
.business { border-top: 1px solid var(--line); margin-top: 1.5rem; padding-top: 1rem; }
.checks { display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 0 .5rem; }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; padding: .1rem .5rem; border-radius: 999px;
  border: 1px solid var(--line); color: var(--muted); vertical-align: middle; }
.actions form { display: flex; }
.actions form button { flex: 1; }
details { margin: .5rem 0; }
summary { cursor: pointer; padding: .7rem 0; color: var(--accent); }
pre { white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; padding: .5rem .75rem; border-radius: 8px;
  background: var(--bg); border: 1px solid var(--line); }
.attempts { margin: 0 0 .75rem; padding-left: 1.5rem; }
.attempts li { overflow-wrap: anywhere; }
/* The clock page: a number beside its unit, and the tables of what happened and what was delivered. */
.field-row { display: flex; flex-wrap: wrap; gap: 0 .75rem; }
.field-row > .field { flex: 1 1 9rem; }
.table-scroll { overflow-x: auto; margin: .75rem 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding: 0 0 .5rem; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid var(--line); }
td, td code { overflow-wrap: break-word; }
th { color: var(--muted); font-weight: 600; }
`;
