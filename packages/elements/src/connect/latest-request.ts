/**
 * The latest authorization request of this origin (its URL: public parameters, the state and the S256 challenge,
 * never the verifier), kept by every attempt in the attempt's own storage, so that a callback page that cannot find
 * its attempt can offer "Connect again" with the same settings. The key's one owner: its writer and its readers
 * (the callback's lazy chunk, the development build's explanation) go through this module.
 */

/** The storage key, not under the attempts' prefix (pruning leaves it alone). */
export const LATEST = 'paykit:connect-again';

/** A kept authorization request: its URL, and whether its attempt is in localStorage (`storage: 'local'`). */
export interface LatestRequest {
  readonly href: string;
  readonly local: boolean;
}

/** Keeps `href` as the latest request in `place` (the attempt's storage). Throws where the browser refuses storage. */
export function rememberLatest(place: Storage, href: string, local: boolean): void {
  place.setItem(LATEST, JSON.stringify([href, local]));
}

/** The latest request kept in `place`, if any (and readable: a storage the browser refuses holds none). */
export function latestRequest(place: Storage): LatestRequest | undefined {
  try {
    // Written by rememberLatest as `[href, local]`; the URL is still checked by whoever follows it.
    const [href, local] = JSON.parse(place.getItem(LATEST)!) as [unknown, unknown];
    return typeof href === 'string' ? { href, local: local === true } : undefined;
  } catch {
    return undefined;
  }
}

/** Forgets the latest request in `place`: connected, "Connect again" has nothing left to offer. */
export function forgetLatest(place: Storage): void {
  place.removeItem(LATEST);
}
