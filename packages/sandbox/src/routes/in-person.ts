/**
 * In-person payments (spec 5.4.8): the business's terminals (as the service's card readers, page-numbered) and
 * its static QR codes (a cursor list).
 */
import type { HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';

/** The terminal and QR-code operations. */
export function inPersonHandlers(sandbox: SandboxContext): HandlersOf<'terminals' | 'qrCodes'> {
  const { state } = sandbox;
  return {
    'terminals.list': ({ businessId }) => state.resources.list('terminals', businessId),
    'qrCodes.list': ({ businessId }) => state.resources.list('static_qr_codes', businessId),
  };
}
