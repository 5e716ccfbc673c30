/** The styles of `<paykit-return>`'s box, kept apart from the element as the buttons' are. */
import { unsafeCSS } from 'lit';

/**
 * Theming as the pay button: system tokens, then `--paykit-return-*`. The "Check again" and "Connect again"
 * buttons and the "Try again" link are at least 44 px high (WCAG 2.5.5), for thumbs.
 *
 * One rule a line, without the spaces Prettier would add, the quotes of attribute values or leading zeros: this text ships to every shopper (`pnpm bench:sizes`).
 * `unsafeCSS` of a constant rather than the `css` tag: the text is this literal, with nothing interpolated, and the
 * tag would bring Lit's `css` function (its checks of interpolated values) to every page, about 150 bytes gzip.
 */
// prettier-ignore
export const returnStatusStyles = unsafeCSS(`
:host{display:block;font-family:var(--paykit-font,inherit)}
[part=base]{padding:var(--paykit-return-padding,1em 1.25em);border-radius:var(--paykit-radius,6px);border:1px solid var(--paykit-return-border,#d1d5db);background:var(--paykit-return-background,transparent)}
[data-state=completed]{border-color:var(--paykit-success-color,#15803d)}
[data-state=failed],[data-state=canceled],[data-state=error]{border-color:var(--paykit-error-color,#b91c1c)}
a,button{display:inline-flex;align-items:center;min-height:44px;font:inherit;color:var(--paykit-accent,#1a56db);background:none}
`);
