/**
 * Records the API only reads (spec 2.4 beneficiaries, 2.5 staff) or that stand for hardware (card-reader
 * terminals, static QR codes): the real service makes them on its dashboard, so a test makes them here.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import * as z from 'zod';
import { isoUtcMicros, isoWithOffset, isoWithoutOffset } from '../../clock.js';
import type { SandboxContext } from '../../context.js';
import { newId } from '../../ids.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

const terminalBody = z.strictObject({ business_id: z.string(), name: z.string().min(1).max(100) });
const beneficiaryBody = z.strictObject({
  business_id: z.string(),
  holder_name: z.string().min(1),
  account_number: z.string().min(1),
  bank_name: z.string().optional(),
  nickname: z.string().optional(),
  // A Bangladeshi local bank account's routing number (the service's beneficiaries OpenAPI, beneficiary-bd-local).
  bank_routing_number: z.string().min(1).max(255).optional(),
});
const staffBody = z.strictObject({
  business_id: z.string(),
  name: z.string().min(1),
  email: z.email(),
  role_title: z.string().min(1),
});

/** `POST /_sandbox/terminals`, `/static-qr-codes`, `/beneficiaries` and `/staff`. */
export function recordRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state } = sandbox;

  routes.post('/terminals', async (c) => {
    const input = await controlBody(terminalBody, c.req.raw);
    businessOf(state, input.business_id);
    const terminal = state.resources.add('terminals', input.business_id, {
      name: input.name,
      status: 'online',
      created_at: isoWithoutOffset(sandbox.clocks.now(input.business_id)),
    });
    return c.json({ ...terminal, url: `${sandbox.publicUrl()}/terminal/${terminal.id}` }, 201);
  });

  routes.post('/static-qr-codes', async (c) => {
    const input = await controlBody(terminalBody, c.req.raw);
    businessOf(state, input.business_id);
    const id = newId();
    // `url` is part of the stored record: core's staticQrCodeSchema requires it.
    const code = state.resources.add('static_qr_codes', input.business_id, {
      id,
      name: input.name,
      url: `${sandbox.publicUrl()}/qr/${id}`,
      payment_method: 'paynow_online',
      created_at: isoWithoutOffset(sandbox.clocks.now(input.business_id)),
    });
    return c.json(code, 201);
  });

  routes.post('/beneficiaries', async (c) => {
    const input = await controlBody(beneficiaryBody, c.req.raw);
    const owner = businessOf(state, input.business_id);
    const now = isoWithOffset(sandbox.clocks.now(owner.id));
    const beneficiary = state.resources.add('beneficiaries', owner.id, {
      status: 'approved',
      country: owner.country,
      currency: owner.currency,
      transfer_method: 'bank_transfer',
      transfer_type: 'local',
      nickname: input.nickname ?? input.holder_name,
      remark: '',
      holder_name: input.holder_name,
      holder_type: 'individual',
      bank_branch_code: '',
      // Only on a beneficiary given one: the service's Singapore example has none (transfers OpenAPI's list).
      ...(input.bank_routing_number === undefined ? {} : { bank_routing_number: input.bank_routing_number }),
      account_number: input.account_number,
      bank_name: input.bank_name ?? 'Sandbox Bank',
      bank_id: 'sandbox',
      email: '',
      is_favourite: false,
      created_by: accountOwner(owner),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    return c.json(beneficiary, 201);
  });

  routes.post('/staff', async (c) => {
    const input = await controlBody(staffBody, c.req.raw);
    businessOf(state, input.business_id);
    const staff = state.resources.add('staff', input.business_id, {
      name: input.name,
      role: { id: newId(), title: input.role_title },
      email: input.email,
      invited_at: isoUtcMicros(sandbox.clocks.now(input.business_id)),
      locations: [],
    });
    return c.json(staff, 201);
  });

  return routes;
}

/**
 * Who made a beneficiary through the control endpoint: the business's owner, as the object of spec 2.4
 * (`{ id, display_name, first_name, last_name }`). The sandbox has no user accounts, so the owner's id is
 * derived from the business id (the same for every beneficiary of one business) and the names are fixed.
 */
function accountOwner(business: { id: string; name: string }) {
  const hex = createHash('sha256').update(`owner:${business.id}`).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id, display_name: `${business.name} owner`, first_name: 'Sandbox', last_name: 'Owner' };
}
