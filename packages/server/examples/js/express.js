import express from 'express';
import { createPaykitHandler, PaykitError } from '@paykit/server';
import { paykitMiddleware } from '@paykit/server/express';

// Your prices: the only place an amount comes from (the page's is checked against it, never taken from it).
const products = {
  'sku-mug': { amount: '12.50', currency: 'SGD', purpose: 'A mug' },
};
const paid = new Set(); // your orders: here, the payment requests the API confirmed paid

const origin = process.env.PUBLIC_ORIGIN ?? 'http://localhost:3000'; // https://shop.example in production
const paykit = createPaykitHandler({
  api: {
    apiBaseUrl: process.env.PAYMENTS_API_URL ?? 'http://127.0.0.1:4010', // the local sandbox: npx paykit-sandbox
    apiKey: process.env.PAYMENTS_API_KEY, // unset: the start stops with one line that says so
  },
  publicOrigin: origin,
  returnUrl: `${origin}/thanks.html`,
  webhookUrl: `${origin}/paykit/webhooks`, // the API must reach it (the local sandbox reaches localhost)
  webhookSalt: process.env.PAYMENTS_SALT,
  createPaymentRequest: (choice) => {
    const item = products[choice.reference ?? ''];
    if (!item)
      throw new PaykitError('validation_failed', 'This product is not for sale', {
        errors: [{ path: 'reference', message: 'is not a product' }],
      });
    return { ...item, ...(choice.email ? { email: choice.email } : {}) };
  },
  onEvent: (event) => {
    if (event.type === 'payment_request.completed') paid.add(event.paymentRequest.id);
  },
});

const app = express();
app.use(paykitMiddleware(paykit)); // first: the handler reads its own request bodies
app.use(express.json()); // for your own routes, after paykit's
app.use(express.static('public')); // index.html with <paykit-pay-button>, thanks.html with <paykit-return>
// paykit.js and the chunks it loads beside it (the elements README: "Getting the script-tag files").
app.use('/js/paykit', express.static('node_modules/@paykit/elements/dist'));
app.get('/orders/:id', (req, res) => void res.json({ paid: paid.has(req.params.id) }));
app.listen(Number(process.env.PORT ?? 3000), () => console.log(`shop on ${origin}`));
