/**
 * The product page: a server component (no "use client" here) that renders the pay button from
 * `@paykit/elements/react`. The wrapper's module starts with "use client", so Next renders its HTML here, on the
 * server (and at `next build`, which prerenders this page), and hydrates it in the browser, where the element
 * upgrades and posts to the route handler under /paykit.
 */
import { PayButton } from '@paykit/elements/react/pay-button';

// Where the payment service's checkout is: the pay button only navigates there. Read when the page is built.
const checkoutOrigin = process.env.CHECKOUT_ORIGIN ?? 'https://checkout.example';

export default function ProductPage() {
  return (
    <main>
      <h1>Enamel mug</h1>
      <p>SGD 12.50</p>
      <PayButton endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD" checkoutOrigins={checkoutOrigin}>
        Buy the mug
      </PayButton>
    </main>
  );
}
