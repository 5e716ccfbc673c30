/**
 * The recurring-billing routes and their checkout against a running sandbox, with raw HTTP: the rules of the
 * real service's create body, the list filter, the not-found texts, the warning when a charge leaves out what
 * the service requires, and the checkout's other outcomes (fail, no redirect, canceled, unknown).
 */
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

async function saveCardRecord(extra: Record<string, unknown> = {}) {
  const answer = await call(sandbox, 'POST', '/v1/recurring-billing', {
    form: new URLSearchParams({
      save_card: 'true',
      name: 'Card on file',
      amount: '20.00',
      customer_email: 'ann@example.test',
      ...extra,
    } as Record<string, string>),
  });
  expect(answer.status).toBe(200);
  return answer.body as { id: string; url: string; status: string };
}

describe('POST /v1/recurring-billing', () => {
  it('without save_card needs a start_date, and a custom cycle its repeat and frequency', async () => {
    const answer = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { name: 'Coffee', amount: 5, cycle: 'custom', customer_email: 'ann@example.test' },
    });
    expect(answer.status).toBe(422);
    // The real service's form: texts by field name.
    expect(Object.keys(answer.body.errors as Record<string, string[]>).sort()).toEqual([
      'cycle_frequency',
      'cycle_repeat',
      'start_date',
    ]);
  });

  it('a subscription from a plan takes the plan name, amount and cycle; an unknown plan is 404', async () => {
    const plan = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'Coffee club', amount: 9.9, currency: 'SGD', cycle: 'monthly' },
    });
    const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { plan_id: plan.body.id, customer_email: 'ann@example.test', start_date: '2030-01-01' },
    });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({
      business_recurring_plans_id: plan.body.id,
      name: 'Coffee club',
      amount: 9.9,
      cycle: 'monthly',
      save_card: 0,
      times_to_be_charged: 1,
      times_charged: 0,
    });
    const unknown = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { plan_id: UNKNOWN, customer_email: 'ann@example.test', start_date: '2030-01-01' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('undocumented fields', () => {
  it('are ignored, not refused, and named in X-Sandbox-Warning', async () => {
    const answer = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { save_card: true, name: 'Card', amount: 5, customer_email: 'ann@example.test', amout: 6 },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.amount).toBe(5);
    expect(answer.body).not.toHaveProperty('amout');
    expect(answer.headers.get('x-sandbox-warning')).toBe('ignored unknown field "amout"');
  });
});

describe('GET, DELETE, charge', () => {
  it('names the missing record as the spec (4.2) and the service (charge, delete) do', async () => {
    expect((await call(sandbox, 'GET', `/v1/recurring-billing/${UNKNOWN}`)).body.message).toBe(
      'Subscription plan record not found',
    );
    for (const [method, path] of [
      ['DELETE', `/v1/recurring-billing/${UNKNOWN}`],
      ['POST', `/v1/charge/recurring-billing/${UNKNOWN}`],
    ] as const) {
      const answer = await call(sandbox, method, path, { json: { amount: 1, currency: 'SGD' } });
      expect(answer.status).toBe(404);
      expect(answer.body.message).toBe('Recurring billing record not found');
    }
  });

  it('lists by status (default active) and refuses a status the service does not name', async () => {
    const record = await saveCardRecord();
    expect((await call(sandbox, 'GET', '/v1/recurring-billing')).body.data).toEqual([]);
    const scheduled = await call(sandbox, 'GET', '/v1/recurring-billing?status=scheduled');
    expect(scheduled.body.data.map((r: { id: string }) => r.id)).toEqual([record.id]);
    expect((await call(sandbox, 'GET', '/v1/recurring-billing?status=paused')).status).toBe(422);
  });

  it('a charge needs amount and currency, as the real service does; with both it is charged', async () => {
    const record = await saveCardRecord();
    await submitPageForm(record.url, 'card_number=4242424242424242&outcome=save');
    const missing = await call(sandbox, 'POST', `/v1/charge/recurring-billing/${record.id}`, { json: { amount: 3 } });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ currency: ['is required'] });
    const first = await call(sandbox, 'POST', `/v1/charge/recurring-billing/${record.id}`, {
      json: { amount: 3, currency: 'sgd' },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ amount: 3, currency: 'sgd', status: 'succeeded' });
    const full = await call(sandbox, 'POST', `/v1/charge/recurring-billing/${record.id}`, {
      form: 'amount=4.50&currency=SGD',
    });
    expect(full.body).toMatchObject({ amount: 4.5, currency: 'sgd' });
    expect(full.headers.get('x-sandbox-warning')).toBeNull();
    const card = await call(sandbox, 'GET', `/v1/recurring-billing/${record.id}`);
    expect(card.body).toMatchObject({ times_charged: 2, total_charge: 7.5 });
  });
});

describe('PUT /v1/recurring-billing/{id}', () => {
  it('changes the fields given; a custom cycle needs its repeat and unit; a plan is refused on a saved card', async () => {
    const record = await saveCardRecord({ redirect_url: 'https://shop.test/back' });
    const changed = await call(sandbox, 'PUT', `/v1/recurring-billing/${record.id}`, {
      form: 'description=Gold+tier&amount=15&send_email=true&customer_name=Ann',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      description: 'Gold tier',
      amount: 15,
      price: 15,
      send_email: 1,
      customer_name: 'Ann',
      name: 'Card on file',
      cycle: 'save_card',
    });
    const custom = await call(sandbox, 'PUT', `/v1/recurring-billing/${record.id}`, { json: { cycle: 'custom' } });
    expect(custom.status).toBe(422);
    const plan = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'Coffee club', amount: 9.9, currency: 'SGD', cycle: 'monthly' },
    });
    const withPlan = await call(sandbox, 'PUT', `/v1/recurring-billing/${record.id}`, {
      json: { plan_id: plan.body.id },
    });
    expect(withPlan.status).toBe(422);
    expect(withPlan.body.message).toBe('When save_card true, you disallow to set plan_id.');
  });

  it('a subscription takes a plan cycle and amount', async () => {
    const plan = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'Coffee club', amount: 9.9, currency: 'SGD', cycle: 'weekly' },
    });
    const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { name: 'Tea', amount: 4, cycle: 'monthly', customer_email: 'ann@example.test', start_date: '2030-01-01' },
    });
    const changed = await call(sandbox, 'PUT', `/v1/recurring-billing/${made.body.id}`, {
      json: { plan_id: plan.body.id },
    });
    expect(changed.body).toMatchObject({ business_recurring_plans_id: plan.body.id, cycle: 'weekly', amount: 9.9 });
  });
});

describe('the recurring-billing checkout', () => {
  it('"Fail" goes back with status=failed and saves nothing', async () => {
    const record = await saveCardRecord({ redirect_url: 'https://shop.test/back' });
    const answer = await submitPageForm(record.url, 'card_number=4242424242424242&outcome=failed');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`https://shop.test/back?reference=${record.id}&status=failed`);
    const card = await call(sandbox, 'GET', `/v1/recurring-billing/${record.id}`);
    expect(card.body).toMatchObject({ status: 'scheduled', payment_method: null });
  });

  it('without redirect_url says the card is saved; a visa number reads as visa', async () => {
    const record = await saveCardRecord();
    const answer = await submitPageForm(record.url, 'card_number=4242-4242-4242-4242&outcome=save');
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('Card saved');
    const card = await call(sandbox, 'GET', `/v1/recurring-billing/${record.id}`);
    expect(card.body.payment_method).toEqual({ card: { brand: 'visa', last4: '4242' } });
  });

  it('a canceled record saves no card (409) and an unknown id is 404', async () => {
    const record = await saveCardRecord();
    await call(sandbox, 'DELETE', `/v1/recurring-billing/${record.id}`);
    const answer = await submitPageForm(record.url, 'card_number=4242424242424242&outcome=save');
    expect(answer.status).toBe(409);
    expect(await answer.text()).toContain('This recurring billing was canceled.');
    expect((await fetch(`${sandbox.url}/checkout/recurring-plan/${UNKNOWN}`)).status).toBe(404);
  });
});
