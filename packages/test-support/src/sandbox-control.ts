/**
 * The parties of a test, made on a running sandbox through its control endpoints (`/_sandbox/...`, see the
 * sandbox README): a platform's OAuth app, a business, a person with a role in a business. Each helper throws
 * when the sandbox refuses, naming the answer: a test that checks these endpoints themselves calls them with
 * `call` instead.
 */
import type { RunningSandbox } from '@paykit/sandbox';
import { call, type Answer } from './sandbox-calls.js';

/** An OAuth app as the sandbox registers it (the answer has more fields; these are the credentials). */
export interface SandboxApp {
  client_id: string;
  client_secret: string;
}

/** A business as the sandbox creates it: its id, its own API key, and the salt its webhooks are signed with. */
export interface SandboxBusiness {
  id: string;
  api_key: string;
  salt: string;
}

/** What {@link registerApp} registers. */
export interface AppOptions {
  /** The name the consent page shows. */
  name: string;
  redirectUris: string[];
  /** The scopes the app may ask for; left out, the sandbox's default. */
  scopes?: string[];
  /** The platform's business; defaults to the seeded business. */
  businessId?: string;
}

/** Registers a platform's OAuth app (`POST /_sandbox/apps`) and resolves with its client credentials. */
export async function registerApp(sandbox: RunningSandbox, options: AppOptions): Promise<SandboxApp> {
  const answer = await call(sandbox, 'POST', '/_sandbox/apps', {
    json: {
      business_id: options.businessId ?? sandbox.seed.businessId,
      name: options.name,
      redirect_uris: options.redirectUris,
      ...(options.scopes ? { scopes: options.scopes } : {}),
    },
  });
  return accepted(answer, 'register the app').body as SandboxApp;
}

/** Creates a business (`POST /_sandbox/businesses`), in Singapore dollars unless told otherwise. */
export async function createBusiness(
  sandbox: RunningSandbox,
  options: { name: string; country?: string; currency?: string },
): Promise<SandboxBusiness> {
  const answer = await call(sandbox, 'POST', '/_sandbox/businesses', {
    json: { name: options.name, country: options.country ?? 'SG', currency: options.currency ?? 'SGD' },
  });
  return accepted(answer, 'create the business').body as SandboxBusiness;
}

/** Creates a dashboard user (`POST /_sandbox/users`) with one role in one business, the owner by default. */
export async function createUser(
  sandbox: RunningSandbox,
  options: { email: string; name: string; businessId: string; role?: 'owner' | 'admin' | 'member' },
): Promise<{ id: string }> {
  const answer = await call(sandbox, 'POST', '/_sandbox/users', {
    json: {
      email: options.email,
      name: options.name,
      memberships: [{ business_id: options.businessId, role: options.role ?? 'owner' }],
    },
  });
  return accepted(answer, 'create the user').body as { id: string };
}

/** The email of the seeded business's member that {@link addMember} creates. */
export const MEMBER_EMAIL = 'clerk@demo-store.test';

/** Adds Clerk, a member (neither Owner nor Admin) of the seeded business: the user the dashboard refuses. */
export function addMember(sandbox: RunningSandbox): Promise<{ id: string }> {
  return createUser(sandbox, {
    email: MEMBER_EMAIL,
    name: 'Clerk',
    businessId: sandbox.seed.businessId,
    role: 'member',
  });
}

/** The answer when it is a success; otherwise an error naming what was tried and what came back. */
export function accepted(answer: Answer, what: string): Answer {
  if (answer.status >= 200 && answer.status < 300) return answer;
  throw new Error(`the sandbox would not ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
}
