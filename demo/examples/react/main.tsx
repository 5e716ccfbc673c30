/**
 * The demo shop in React 19: the products with `<PayButton>` from `@paykit/elements/react`, bundled by Vite as
 * an app would be. Events arrive as typed props; the shop shows an error where it happened.
 */
import { PayButton } from '@paykit/elements/react/pay-button';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { readShopData } from '../read-shop-data.js';
import type { ShownProduct } from '../shop-data.js';

const { checkoutOrigin, products } = readShopData();

function Product({ product }: { product: ShownProduct }) {
  const [status, setStatus] = useState('');
  return (
    <article className="product" data-sku={product.sku}>
      <h2>{product.name}</h2>
      <p>{product.description}</p>
      <p className="price">{product.price}</p>
      <PayButton
        endpoint="/paykit"
        reference={product.sku}
        amount={product.amount}
        currency={product.currency}
        purpose={product.name}
        checkoutOrigins={checkoutOrigin}
        onPaykitCheckout={(event) => setStatus(`Going to the checkout for ${event.detail.id}…`)}
        onPaykitError={(event) => setStatus(`Could not start the checkout (${event.detail.code}).`)}
      >
        Buy {product.name}
      </PayButton>
      <p className="example-status" role="status">
        {status}
      </p>
    </article>
  );
}

function Shop() {
  return (
    <section className="products">
      {products.map((product) => (
        <Product key={product.sku} product={product} />
      ))}
    </section>
  );
}

createRoot(document.getElementById('app')!).render(
  <StrictMode>
    <Shop />
  </StrictMode>,
);
