/**
 * Fields nobody documents, on every kind of body the API takes: the real service ignores them, so the sandbox
 * answers as if they were not sent (nothing stored, nothing echoed) and names them in `X-Sandbox-Warning`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@paykit/test-support/sandbox-calls';
import { startSandbox, type RunningSandbox } from './start.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('undocumented fields are ignored and named', () => {
  it('JSON: a customer with a typo is made without it, and the header names it', async () => {
    const made = await call(sandbox, 'POST', '/v1/customers', {
      json: { name: 'Ann Lee', email: 'ann@example.test', emial: 'typo@example.test' },
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('x-sandbox-warning')).toBe('ignored unknown field "emial"');
    expect(made.body).toMatchObject({ name: 'Ann Lee', email: 'ann@example.test' });
    expect(made.body).not.toHaveProperty('emial');
    const listed = await call(sandbox, 'GET', '/v1/customers');
    expect(listed.body.data[0]).not.toHaveProperty('emial');
  });

  it('form: a subscription plan with two unknown fields is made as without them', async () => {
    const made = await call(sandbox, 'POST', '/v1/subscription-plan', {
      form: 'name=Beans&amount=18.50&cycle=monthly&speed=fast&note=hi',
    });
    expect(made.status).toBeLessThan(300);
    expect(made.headers.get('x-sandbox-warning')).toBe('ignored unknown fields "speed", "note"');
    expect(made.body).toMatchObject({ name: 'Beans', amount: 18.5, cycle: 'monthly' });
    expect(made.body).not.toHaveProperty('speed');
    expect(made.body).not.toHaveProperty('note');
    const plain = await call(sandbox, 'POST', '/v1/subscription-plan', { form: 'name=Tea&amount=5&cycle=weekly' });
    expect(plain.status).toBeLessThan(300);
    expect(plain.headers.get('x-sandbox-warning')).toBeNull();
  });

  it('multipart: a product with an unknown part is made, and the header names it', async () => {
    const form = new FormData();
    form.append('name', 'Mug');
    form.append('price', '15');
    form.append('colour', 'blue');
    const answer = await fetch(`${sandbox.url}/v1/products`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey },
      body: form,
    });
    expect(answer.status).toBeLessThan(300);
    expect(answer.headers.get('x-sandbox-warning')).toBe('ignored unknown field "colour"');
    expect(await answer.json()).not.toHaveProperty('colour');
  });

  it('a documented field with a wrong value is still refused (422 naming it)', async () => {
    const refused = await call(sandbox, 'POST', '/v1/customers', {
      json: { name: 'Ann Lee', email: 'not-an-email', extra: 1 },
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['email']);
  });
});

describe('an empty form value is not sent, as the service reads forms; JSON keeps ""', () => {
  it('form and multipart: a product with `quantity=` is created (201), as without it', async () => {
    const form = await call(sandbox, 'POST', '/v1/products', { form: 'name=Beanie&price=15&quantity=&headline=' });
    expect(form.status, JSON.stringify(form.body)).toBe(201);
    expect(form.headers.get('x-sandbox-warning')).toBeNull();
    expect(form.body).toMatchObject({ name: 'Beanie', price: 15, headline: null });
    expect(form.body).not.toHaveProperty('quantity');
    const multipart = new FormData();
    multipart.append('name', 'Scarf');
    multipart.append('price', '20');
    multipart.append('quantity', '');
    multipart.append('quantity_alert_level', '');
    const answer = await fetch(`${sandbox.url}/v1/products`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey },
      body: multipart,
    });
    expect(answer.status).toBe(201);
    expect(await answer.json()).not.toHaveProperty('quantity');
  });

  it('form: a payment request with empty optional fields is made as without them', async () => {
    const made = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=10&currency=SGD&email=&purpose=&reference_number=&redirect_url=&payment_methods[]=&address[line2]=',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const plain = await call(sandbox, 'POST', '/v1/payment-requests', { form: 'amount=10&currency=SGD' });
    const fields = ['email', 'purpose', 'reference_number', 'redirect_url', 'payment_methods', 'address'];
    for (const field of fields) expect(made.body[field], field).toEqual(plain.body[field]);
    expect(made.body).toMatchObject({ email: null, purpose: null, reference_number: null, address: null });
    // The same field with a value is still checked.
    const bad = await call(sandbox, 'POST', '/v1/payment-requests', { form: 'amount=10&currency=SGD&email=nope' });
    expect(bad.status).toBe(422);
  });

  it('JSON: "" is a value the client sent, and is checked as one', async () => {
    const refused = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: 10, currency: 'SGD', email: '' },
    });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(['email']);
  });
});
