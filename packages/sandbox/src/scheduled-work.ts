/**
 * What the timeline (`timeline.ts`) walks: kinds of work that fall due on a business's clock, and what happened
 * when they ran. A leaf module, so that each kind of work and the timeline import it, not each other.
 */
import type { SandboxContext } from './context.js';

/** One thing that happened while a clock moved, as the advance answers it. */
export interface Happening {
  /** When it happened, on the business's clock (ISO 8601 with offset, as the API's stamps). */
  at: string;
  /** What happened: `charge.succeeded`, `charge.failed`, `payment_request.expired`, `transfer.paid`, … */
  type: string;
  /** The object it happened to. */
  object_id: string;
  /** One line for a person. */
  summary: string;
}

/** A kind of work that falls due on a business's clock. */
export interface ScheduledWork {
  /** The earliest instant (epoch ms on the business's clock) something of this kind falls due, if any. */
  nextDue(sandbox: SandboxContext, businessId: string): number | undefined;
  /** Does everything of this kind due at or before `atMs`, oldest first; answers what happened. */
  runDue(sandbox: SandboxContext, businessId: string, atMs: number): Promise<Happening[]> | Happening[];
}
