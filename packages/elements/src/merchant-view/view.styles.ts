/** The styles of the merchant views, shared by the three. */
import { unsafeCSS } from 'lit';

/**
 * Theming as the other elements: the system tokens (`--paykit-accent`, `--paykit-on-accent`, `--paykit-radius`,
 * `--paykit-font`, `--paykit-focus-ring`, `--paykit-error-color`, `--paykit-success-color`), then the views' own
 * (`--paykit-view-border`, `--paykit-view-background`, `--paykit-view-padding`, `--paykit-view-muted`). Dark: the
 * defaults follow `prefers-color-scheme`; a page with its own dark theme sets the tokens. Right to left: logical
 * properties only (`text-align: start`, `padding-inline`), so that `dir="rtl"` mirrors the tables. Buttons are at
 * least 44 px high (WCAG 2.5.5).
 */
// prettier-ignore
export const viewStyles = unsafeCSS(`
:host{display:block;font-family:var(--paykit-font,inherit);--_accent:var(--paykit-accent,#1a56db);--_border:var(--paykit-view-border,#d1d5db);--_muted:var(--paykit-view-muted,#4b5563);--_error:var(--paykit-error-color,#b91c1c);--_ok:var(--paykit-success-color,#15803d)}
@media (prefers-color-scheme:dark){:host{--_accent:var(--paykit-accent,#93b4fd);--_border:var(--paykit-view-border,#4b5563);--_muted:var(--paykit-view-muted,#d1d5db);--_error:var(--paykit-error-color,#fca5a5);--_ok:var(--paykit-success-color,#86efac)}}
[part=base]{padding:var(--paykit-view-padding,1em 1.25em);border:1px solid var(--_border);border-radius:var(--paykit-radius,6px);background:var(--paykit-view-background,transparent)}
table{width:100%;border-collapse:collapse}
caption{text-align:start;font-weight:600;padding-block-end:.5em}
th,td{text-align:start;padding:.5em .75em;border-block-end:1px solid var(--_border);vertical-align:top}
[data-num]{text-align:end;font-variant-numeric:tabular-nums;white-space:nowrap}
button{min-height:44px;padding:.4em 1em;font:inherit;color:var(--_accent);background:none;border:1px solid currentColor;border-radius:var(--paykit-radius,6px);cursor:pointer}
button[data-primary]{color:var(--paykit-on-accent,#fff);background:var(--_accent);border-color:var(--_accent)}
button:disabled,button[aria-disabled=true]{cursor:progress;opacity:.8}
button:focus-visible,input:focus-visible{outline:3px solid var(--paykit-focus-ring,#f59e0b);outline-offset:2px}
input{font:inherit;min-height:44px;padding-inline:.5em;border:1px solid var(--_border);border-radius:var(--paykit-radius,6px);color:inherit;background:transparent}
[part~=error],[part~=field-error]{color:var(--_error)}
[data-state=connected] [part=health],[part=result]{color:var(--_ok)}
[part=since],[part=hint],[part=empty]{color:var(--_muted)}
[part=detail]>td{padding-block:1em}
[part=refund]{margin-block-start:1em;padding:1em;border:1px solid var(--_border);border-radius:var(--paykit-radius,6px)}
[part=refund] p,[part=detail] p{margin:0 0 .5em}
.sr{position:absolute;width:1px;height:1px;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
[hidden]{display:none!important}
`);
