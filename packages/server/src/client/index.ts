/**
 * `@paykit/server/client`: a typed client of every operation of the Payments API.
 *
 * @packageDocumentation
 */
export {
  createPaymentsClient,
  type BalanceTransactionRange,
  type ListOperation,
  type PageQuery,
  type PaymentsClient,
  type PaymentsClientConfig,
} from './payments-client.js';
export { followCursors, followPages } from './paginate.js';
export { apiKeyAuth, type ApiAuth, type ApiConfig } from '../api/config.js';
