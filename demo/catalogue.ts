/**
 * The demo shop's catalogue: the one place prices come from. The page shows them; the server decides them.
 */
import { PaykitError } from '@paykit/server';

/** A product of the demo shop. */
export interface Product {
  sku: string;
  name: string;
  description: string;
  /** Major units, two decimals, as the API takes it. */
  amount: string;
  currency: string;
}

/** What the demo shop sells. */
export const PRODUCTS: readonly Product[] = [
  { sku: 'sku-mug', name: 'Enamel mug', description: 'Holds 350 ml of coffee.', amount: '12.50', currency: 'SGD' },
  { sku: 'sku-tee', name: 'Organic T-shirt', description: 'Soft, undyed cotton.', amount: '30.00', currency: 'SGD' },
  {
    sku: 'sku-map',
    name: 'Harbour map print',
    description: 'A2, on recycled paper.',
    amount: '48.90',
    currency: 'SGD',
  },
];

/** The product with this SKU; `validation_failed` (shown to the shopper) when there is none. */
export function productOf(sku: string | undefined): Product {
  const product = PRODUCTS.find((p) => p.sku === sku);
  if (!product) {
    throw new PaykitError('validation_failed', 'This product is no longer for sale', {
      errors: [{ path: 'reference', message: 'is not a product of this shop' }],
    });
  }
  return product;
}
