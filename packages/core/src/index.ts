/**
 * `@paykit/core`: the schemas of the Payments API, its money and URL rules, and paykit's error type.
 * Isomorphic: no DOM and no Node-only API. Browser code should import `@paykit/core/browser`, which
 * leaves zod out.
 *
 * @packageDocumentation
 */
export * from './browser.js';
export * from './form.js';
export * from './format-price.js';
export * from './json-object.js';
export * from './one-of.js';
export * from './validation.js';
export * from './http-status.js';
export * from './schemas/fields.js';
export * from './schemas/list.js';
export * from './schemas/payment-request.js';
export * from './schemas/shopper-choice.js';
export * from './schemas/charge.js';
export * from './schemas/webhook-event.js';
export * from './schemas/webhook-notification.js';
export * from './schemas/error-body.js';
export * from './scopes.js';
export * from './operations/index.js';
export * from './schemas/oauth.js';
export * from './schemas/payout.js';
export * from './schemas/refund.js';
export * from './schemas/recurring-billing.js';
export * from './schemas/beneficiary.js';
export * from './schemas/staff.js';
export * from './schemas/balance-transaction.js';
export * from './schemas/commerce.js';
export * from './schemas/customer.js';
export * from './schemas/subscription-plan.js';
export * from './schemas/transfer.js';
export * from './schemas/terminal.js';
