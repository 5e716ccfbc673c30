/**
 * The two refusals of an OAuth callback that carry more than a code, as classes a page can test with `instanceof`
 * (as oauth4webapi's error classes): a denial with the server's description, and a lost attempt with the way to
 * start it again.
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';

/**
 * The merchant declined on the consent page (`access_denied`). `description` is the authorization server's
 * `error_description` as it came: words anyone can put in a callback URL, so paykit never shows them; the page
 * reads them from the `paykit-connect-denied` event if it wants them.
 */
export class ConnectDeniedError extends PaykitError {
  declare readonly description: string | undefined;

  constructor(description: string | undefined, message = text().connectCancelled) {
    super('access_denied', message);
    this.description = description;
  }
}

/**
 * A callback whose attempt is not found (`state_unknown`) or expired (`state_expired`): when this browser
 * remembers the origin's latest authorization request, `connectAgain` starts it again (a fresh state and verifier,
 * the same parameters and storage) and takes the merchant there; `<paykit-return>` offers it as "Connect again".
 */
export class ConnectAgainError extends PaykitError {
  declare readonly connectAgain: (() => Promise<void>) | undefined;

  constructor(code: 'state_unknown' | 'state_expired', connectAgain?: () => Promise<void>) {
    super(code, text().connectFailed);
    this.connectAgain = connectAgain;
  }
}
