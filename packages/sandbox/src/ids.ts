/** The ids and secrets the sandbox hands out, in one place so that each kind has one form (Node's CSPRNG). */
import { randomBytes, randomUUID } from 'node:crypto';

/** A new resource id: a UUID, as the spec's identifiers are. */
export const newId = (): string => randomUUID();

/** A new secret with a readable prefix (`sk_sandbox_…`): 32 random bytes, base64url. */
export const newSecret = (prefix: string): string => `${prefix}_${randomBytes(32).toString('base64url')}`;
