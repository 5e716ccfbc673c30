/**
 * The bare tags in React 19 TSX, typed by `@paykit/elements/types/react` (generated from the custom elements
 * manifest). Checked by `tsc` in test/framework-types.test.ts: it compiles, and each `@ts-expect-error` below
 * must meet an error (an unused one fails the check).
 */
import type {} from '@paykit/elements/types/react';

export function Shop({ report }: { report: (detail: { code: string; message: string }) => void }) {
  return (
    <main>
      <paykit-pay-button
        endpoint="/paykit"
        reference="sku-mug"
        amount="12.50"
        currency="SGD"
        checkout-origins="https://checkout.example"
        onpaykit-error={(event) => report(event.detail)}
      >
        Buy the mug
      </paykit-pay-button>
      <paykit-connect-button client-id="app_123" scope="payments" popup endpoint="/paykit" />
      <paykit-return endpoint="/paykit" max-wait-ms={60_000} />
      {/* @ts-expect-error max-wait-ms is a number of milliseconds */}
      <paykit-return endpoint="/paykit" max-wait-ms="soon" />
      {/* @ts-expect-error storage is "session" or "local" */}
      <paykit-connect-button client-id="app_123" storage="cookie" />
      {/* @ts-expect-error a reference is a string */}
      <paykit-pay-button endpoint="/paykit" reference={12} />
      {/* @ts-expect-error an error's detail has a code and a message, no amount */}
      <paykit-pay-button endpoint="/paykit" onpaykit-error={(event) => event.detail.amount} />
    </main>
  );
}
