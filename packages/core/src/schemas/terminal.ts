/**
 * In-person payments (spec 5.4.8): card-reader terminals (`wifi_terminal_id`) and static QR codes. Shapes: paykit's.
 */
import * as z from 'zod';
import { id } from './fields.js';

/** A card-reader terminal of a business. */
export const terminalSchema = z.looseObject({
  id,
  name: z.string(),
  status: z.string().optional(),
  created_at: z.string().optional(),
});

/** A terminal. */
export type Terminal = z.output<typeof terminalSchema>;

/** A static QR code a shop displays at its counter. */
export const staticQrCodeSchema = z.looseObject({
  id,
  name: z.string().nullish(),
  url: z.string(),
  payment_method: z.string().nullish(),
  created_at: z.string().optional(),
});

/** A static QR code. */
export type StaticQrCode = z.output<typeof staticQrCodeSchema>;
