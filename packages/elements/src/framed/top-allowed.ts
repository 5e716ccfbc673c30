/**
 * What a page inside a frame can learn of its frame's sandbox without reading anything of another origin: shared by
 * the framed pages' chunk (framed.ts) and the development build's diagnostics.
 */

/**
 * Whether this frame may navigate the top window, from the `sandbox` of every frame element on the way up that
 * this page may read: `false` when one lacks both `allow-top-navigation` and
 * `allow-top-navigation-by-user-activation`, `undefined` when a parent of another origin (or this frame's opaque
 * origin) hides the rest. Never throws.
 */
export function topAllowed(): boolean | undefined {
  try {
    for (let frame: Window = self; frame !== top; frame = frame.parent) {
      const element = frame.frameElement;
      if (!element) return undefined;
      const sandbox = element.getAttribute('sandbox');
      if (sandbox !== null && !/(^|\s)allow-top-navigation(-by-user-activation)?(\s|$)/i.test(sandbox)) return false;
    }
    return true;
  } catch {
    return undefined;
  }
}
