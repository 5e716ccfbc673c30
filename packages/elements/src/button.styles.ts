/** The styles of paykit's buttons, shared by the pay and the connect button (`busy-button.ts`). */
import { unsafeCSS } from 'lit';

/**
 * Two layers of custom properties: the system tokens (`--paykit-accent`, `--paykit-radius`, `--paykit-font`)
 * that theme every paykit element, then per-element ones (`--paykit-pay-button-*`, which the connect button shares) that default to them.
 *
 * The error (and an outcome reached on the page, `status`) is positioned below the button, out of the flow: its
 * appearance never moves what is around the button (no layout shift); a page that wants it in the flow sets
 * `::part(error){position:static}`.
 *
 * One rule a line, without the spaces Prettier would add, the quotes of attribute values or leading zeros: this text ships to every shopper (`pnpm bench:sizes`).
 * `unsafeCSS` of a constant rather than the `css` tag: the text is this literal, with nothing interpolated, and the
 * tag would bring Lit's `css` function (its checks of interpolated values) to every page, about 150 bytes gzip.
 */
// prettier-ignore
export const buttonStyles = unsafeCSS(`
:host{display:inline-block;position:relative}
button{display:inline-flex;align-items:center;gap:.5em;font:inherit;font-family:var(--paykit-font,inherit);font-weight:600;padding:var(--paykit-pay-button-padding,.6em 1.2em);border:0;border-radius:var(--paykit-pay-button-radius,var(--paykit-radius,6px));color:var(--paykit-pay-button-color,var(--paykit-on-accent,#fff));background:var(--paykit-pay-button-background,var(--paykit-accent,#1a56db));cursor:pointer}
button:focus-visible{outline:3px solid var(--paykit-focus-ring,#f59e0b);outline-offset:2px}
button[aria-busy=true]{cursor:progress;opacity:.8}
[part=spinner]{width:1em;height:1em;border:2px solid currentColor;border-right-color:transparent;border-radius:50%;animation:spin .8s linear infinite}
@media (prefers-reduced-motion:reduce){[part=spinner]{animation:none}}
@keyframes spin{to{transform:rotate(1turn)}}
[part=error],[part=status]{position:absolute;top:100%;left:0;width:max-content;max-width:20em;margin:.4em 0 0;font-size:.9em}
[part=error]{color:var(--paykit-error-color,#b91c1c)}
`);
