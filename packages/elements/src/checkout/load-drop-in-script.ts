/**
 * Loading the payment service's drop-in script (`window.HitPay`): only from an origin the page lists in
 * `checkout-origins`, as a classic `<script>` (the service's script is one, and is served without CORS), under a
 * page's Trusted Types too. A script that cannot load (the page's Content-Security-Policy, a content blocker, the
 * network) resolves `undefined`: the caller takes the shopper to the checkout page instead. Part of the drop-in's
 * lazy chunk.
 */
import { parseAllowedUrl } from '@paykit/core/browser';
import type { DropInScript } from './types.js';

/** The drop-in script's public surface, as the service documents it (see the sandbox README, "Drop-in"). */
export interface DropInApi {
  inited?: boolean;
  init(
    paymentUrl: string,
    options: { domain: string; apiDomain: string; scheme: string; closeOnError: boolean },
    callbacks: { onClose(): void; onSuccess(data: unknown): void; onError(error: unknown): void },
  ): void;
  toggle(params: { paymentRequest: string; open?: boolean }): void;
}

/** How long a script may take to load before the checkout page is used instead. */
export const SCRIPT_TIMEOUT_MS = 10_000;

/** The name of the Trusted Types policy that loads the script on a page that enforces them. */
export const TRUSTED_TYPES_POLICY = 'paykit-drop-in';

/**
 * The script's URL: `/hitpay.js` on the checkout URL's origin for `true` or `''`, else the URL given; `undefined`
 * when it is not an https URL (http on this machine) on one of `checkoutOrigins`.
 */
export function dropInScriptUrl(
  dropIn: DropInScript,
  checkoutUrl: string,
  checkoutOrigins: readonly string[],
): URL | undefined {
  return parseAllowedUrl(
    dropIn === true || dropIn === '' ? new URL('/hitpay.js', checkoutUrl).href : dropIn,
    checkoutOrigins,
  );
}

/** Loads of each script URL: one `<script>` per URL and page, however many buttons click. */
const loads = new Map<string, Promise<DropInApi | undefined>>();

/**
 * The drop-in's API once the script at `url` has run, else `undefined` (it did not load, or defined no drop-in).
 * Loaded once per page; a load that failed is tried again by the next call (the network may be back).
 */
export function loadDropInScript(url: URL): Promise<DropInApi | undefined> {
  let load = loads.get(url.href);
  if (!load) {
    loads.set(url.href, (load = inject(url)));
    void load.then((api) => api || loads.delete(url.href));
  }
  return load;
}

/** `window.HitPay` when it has the documented functions. */
function current(): DropInApi | undefined {
  // The global the drop-in's script sets, typed here only: a `declare global` would reach the package's users.
  const api = (globalThis as { HitPay?: Partial<DropInApi> }).HitPay;
  return isDropInApi(api) ? api : undefined;
}

const isDropInApi = (api: Partial<DropInApi> | undefined): api is DropInApi =>
  typeof api?.init === 'function' && typeof api.toggle === 'function';

function inject(url: URL): Promise<DropInApi | undefined> {
  return new Promise((resolve) => {
    const script = document.createElement('script');
    const done = (api?: DropInApi) => {
      clearTimeout(timer);
      if (!api) script.remove();
      resolve(api);
    };
    const timer = setTimeout(done, SCRIPT_TIMEOUT_MS);
    script.onload = () => done(current());
    // A script refused by the page's policy fires `error` as one the network lost, or answered 404.
    script.onerror = () => done();
    try {
      script.src = scriptUrl(url.href);
    } catch {
      // Trusted Types enforced without paykit's policy allowed: nothing can be loaded.
      return done();
    }
    document.head.append(script);
  });
}

/** What a Trusted Types policy makes of a script URL (a TrustedScriptURL, which `script.src` takes). */
interface ScriptUrlPolicy {
  createScriptURL(input: string): string;
}

let policy: ScriptUrlPolicy | undefined;
/** URLs the policy will make trusted: those this module chose, so that the policy lets nothing else through. */
const chosen = new Set<string>();

/**
 * `href` as `script.src` takes it: through paykit's own Trusted Types policy (`paykit-drop-in`) where the browser
 * has Trusted Types, so that a page that enforces them and allows the name loads it (and reports nothing); the
 * plain string where the browser has none, or the page's `trusted-types` list refuses the name (then the assignment
 * throws if the page also enforces them).
 */
function scriptUrl(href: string): string {
  // Trusted Types are not in TypeScript's DOM library: the part of them used here.
  const factory = (
    globalThis as { trustedTypes?: { createPolicy(name: string, rules: ScriptUrlPolicy): ScriptUrlPolicy } }
  ).trustedTypes;
  chosen.add(href);
  try {
    policy ??= factory?.createPolicy(TRUSTED_TYPES_POLICY, {
      createScriptURL: (input) => {
        if (!chosen.has(input)) throw new TypeError(`${TRUSTED_TYPES_POLICY} loads only the drop-in script`);
        return input;
      },
    });
  } catch {
    // The page's `trusted-types` does not list the name.
  }
  return policy ? policy.createScriptURL(href) : href;
}
