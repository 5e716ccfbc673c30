/** What each scope lets an app do, in the words the consent page uses. */
import type { Scope } from '@paykit/core';

/** The consent page's and the Connected apps page's words for each scope, so a merchant reads what it grants. */
export const SCOPE_WORDS: Record<Scope, string> = {
  'business:read': 'See your business profile and account information',
  payments: 'Create, view, cancel and refund payments',
  'payments:read': 'View payments and payment requests',
  'payments:create': 'Create payments and payment requests',
  'payments:cancel': 'Cancel payments and payment requests',
  'payments:refund': 'Refund payments',
  commerce: 'Manage products, orders and invoices',
  'commerce:read': 'View products, orders and invoices',
  'commerce:create': 'Create products, orders and invoices',
  'commerce:delete': 'Delete products',
  customer: 'Manage customers',
  'customer:read': 'View customers',
  'customer:create': 'Create customers',
};
