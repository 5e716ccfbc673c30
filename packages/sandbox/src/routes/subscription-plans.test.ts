/**
 * Subscription plans in the real service's shapes (its subscription-plan OpenAPI): the custom cycle with its
 * count and unit, the fields that go with it only, and reading, updating and deleting a plan.
 */
import { call, errorFields } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('subscription plans', () => {
  it('a custom cycle: every 2 weeks, answered in the service’s shape', async () => {
    const created = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: {
        name: 'Fortnightly beans',
        description: 'Coffee every other week',
        amount: 18.5,
        cycle: 'custom',
        cycle_repeat: 2,
        cycle_frequency: 'week',
        reference: 'beans-2w',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Fortnightly beans',
      description: 'Coffee every other week',
      cycle: 'custom',
      cycle_repeat: 2,
      cycle_frequency: 'week',
      currency: 'sgd',
      price: 18.5,
      amount: 18.5,
      reference: 'beans-2w',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
    });
    expect((await call(sandbox, 'GET', `/v1/subscription-plan/${created.body.id}`)).body).toEqual(created.body);
  });

  it('custom needs its count and unit; other cycles refuse them; a form body works too', async () => {
    const bare = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'x', amount: 1, cycle: 'custom' },
    });
    expect(bare.status).toBe(422);
    expect(errorFields(bare.body)).toEqual(['cycle_frequency', 'cycle_repeat']);
    const monthly = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'x', amount: 1, cycle: 'monthly', cycle_repeat: 3, cycle_frequency: 'week' },
    });
    expect(errorFields(monthly.body)).toEqual(['cycle_frequency', 'cycle_repeat']);
    const form = await call(sandbox, 'POST', '/v1/subscription-plan', {
      form: 'name=Daily+tea&amount=2.50&currency=SGD&cycle=custom&cycle_repeat=1&cycle_frequency=day',
    });
    expect(form).toMatchObject({ status: 200, body: { cycle_repeat: 1, cycle_frequency: 'day', amount: 2.5 } });
    const monthlyPlain = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'Monthly', amount: 9.9, cycle: 'monthly' },
    });
    expect(monthlyPlain.body).toMatchObject({ cycle: 'monthly', cycle_repeat: null, cycle_frequency: null });
  });

  it('types description, cycle_repeat and cycle_frequency as the OpenAPI does, in the list too', async () => {
    const bare = await call(sandbox, 'POST', '/v1/subscription-plan', {
      form: 'name=No+words&amount=3&cycle=custom&cycle_repeat=3&cycle_frequency=month',
    });
    // `description` a string (empty when none was sent), `cycle_repeat` a whole number, `cycle_frequency` text.
    expect(bare.body).toMatchObject({ description: '', cycle_repeat: 3, cycle_frequency: 'month' });
    const listed = await call(sandbox, 'GET', '/v1/subscription-plan?per_page=100');
    for (const plan of listed.body.data as Record<string, unknown>[]) {
      expect(typeof plan.description).toBe('string');
      if (plan.cycle === 'custom') {
        expect(Number.isInteger(plan.cycle_repeat)).toBe(true);
        expect(typeof plan.cycle_frequency).toBe('string');
      } else {
        expect(plan).toMatchObject({ cycle_repeat: null, cycle_frequency: null });
      }
    }
  });

  it('numbers the page’s items in meta.from and meta.to, null on an empty page (Laravel’s paginator)', async () => {
    for (const name of ['a', 'b', 'c']) {
      await call(sandbox, 'POST', '/v1/subscription-plan', { json: { name, amount: 1, cycle: 'weekly' } });
    }
    const total = (await call(sandbox, 'GET', '/v1/subscription-plan')).body.meta.total as number;
    expect(total).toBeGreaterThanOrEqual(3);
    const second = await call(sandbox, 'GET', '/v1/subscription-plan?per_page=2&page=2');
    expect(second.body.meta).toMatchObject({ current_page: 2, from: 3, to: Math.min(4, total), per_page: 2, total });
    const past = await call(sandbox, 'GET', '/v1/subscription-plan?per_page=2&page=999');
    expect(past.body.data).toEqual([]);
    expect(past.body.meta).toMatchObject({ current_page: 999, from: null, to: null, total });
  });

  it('updates the whole plan and deletes it', async () => {
    const created = await call(sandbox, 'POST', '/v1/subscription-plan', {
      json: { name: 'Spotify Premium', amount: 9.9, cycle: 'monthly', currency: 'SGD' },
    });
    const id = created.body.id as string;
    const updated = await call(sandbox, 'PUT', `/v1/subscription-plan/${id}`, {
      json: { name: 'Spotify Premium', amount: 12.9, cycle: 'yearly' },
    });
    expect(updated).toMatchObject({
      status: 200,
      body: { id, amount: 12.9, cycle: 'yearly', created_at: created.body.created_at },
    });
    expect((await call(sandbox, 'DELETE', `/v1/subscription-plan/${id}`)).status).toBe(204);
    expect((await call(sandbox, 'GET', `/v1/subscription-plan/${id}`)).status).toBe(404);
    expect((await call(sandbox, 'PUT', `/v1/subscription-plan/${id}`, { json: {} })).status).toBe(404);
  });
});
