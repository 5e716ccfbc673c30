/**
 * `@paykit/server/client`: a typed client of every operation of the Payments API.
 *
 * @packageDocumentation
 */
export { createPaymentsClient, type PaymentsClient, type PaymentsClientConfig } from './payments-client.js';
export type { ListOperation, PageQuery } from './operation-methods.js';
export { followCursors, followPages } from './paginate.js';
export { apiKeyAuth, type ApiAuth, type ApiConfig } from '../api/config.js';
