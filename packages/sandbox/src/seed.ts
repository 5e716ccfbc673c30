/**
 * The business every sandbox starts with (and returns to on `POST /_sandbox/reset`). Its keys are fixed and
 * public on purpose, so that the demo and a person trying the API by hand need no setup. They are sandbox
 * keys: they open nothing outside this emulator.
 */
export const SANDBOX_SEED = {
  businessId: '00000000-0000-4000-8000-000000000001',
  name: 'Demo Store',
  country: 'sg',
  currency: 'sgd',
  apiKey: 'sandbox_api_key_demo_store',
  platformKey: 'sandbox_platform_key_demo_store',
  /** The key its webhooks are signed with (the real service's "salt", shown beside the API key). */
  salt: 'sandbox_salt_demo_store',
} as const;
