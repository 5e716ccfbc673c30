/**
 * Next.js and other React frameworks render the wrappers on the server first: that must work in Node without a
 * DOM, and the page must come out with the element's tag and its light-DOM label.
 */
import { ConnectButton, PayButton, PaykitReturn } from '@paykit/elements/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

describe('the React wrappers rendered on the server', () => {
  it('render their tags and children in Node', () => {
    expect('document' in globalThis).toBe(false);
    const html = renderToString(
      createElement(
        'main',
        null,
        createElement(
          PayButton,
          { endpoint: '/paykit', reference: 'sku-mug', checkoutOrigins: 'https://checkout.example' },
          'Buy the mug',
        ),
        createElement(ConnectButton, { clientId: 'app_123', scope: 'payments' }),
        createElement(PaykitReturn, { endpoint: '/paykit' }),
      ),
    );
    expect(html).toMatch(/<paykit-pay-button[^>]*>Buy the mug<\/paykit-pay-button>/);
    expect(html).toContain('<paykit-connect-button');
    expect(html).toContain('<paykit-return');
  });
});

// Checked by `tsc` (the test package's typecheck), never run: a pay button without checkoutOrigins does not compile.
export function payButtonNeedsCheckoutOrigins(): unknown {
  // @ts-expect-error checkoutOrigins is required: without it a click creates nothing.
  return createElement(PayButton, { endpoint: '/paykit', reference: 'sku-mug' });
}
