/**
 * The return page (the handler's `returnUrl`): `<PaykitReturn>` reads the payment request's status from the
 * route handler and shows it. A server component too.
 */
import { PaykitReturn } from '@paykit/elements/react/return';

export default function ThanksPage() {
  return (
    <main>
      <h1>Thank you</h1>
      <PaykitReturn endpoint="/paykit" />
    </main>
  );
}
