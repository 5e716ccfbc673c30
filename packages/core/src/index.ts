/**
 * `@paykit/core`: the schemas of the Payments API, its money and URL rules, and paykit's error type.
 * Isomorphic: no DOM and no Node-only API. Browser code should import `@paykit/core/browser`, which
 * leaves zod out.
 *
 * @packageDocumentation
 */
export * from './browser.js';
export * from './form.js';
export * from './validation.js';
export * from './schemas/fields.js';
export * from './schemas/payment-request.js';
export * from './schemas/shopper-choice.js';
export * from './schemas/charge.js';
export * from './schemas/webhook-event.js';
export * from './schemas/error-body.js';
export * from './scopes.js';
export * from './schemas/oauth.js';
