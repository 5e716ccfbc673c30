/// <reference types="mocha" />
/**
 * The browser side of the merchant views' test backend (merchant-view-backend.ts): what reached it, a reset, and
 * small helpers to read a view's shadow root.
 */
import { waitFor } from './backend-client.js';

/** See merchant-view-backend.ts, `GET /__test/merchant-view`. */
export interface MerchantViewBackendState {
  /** Refund POSTs that reached the backend. */
  posts: number;
  /** Their `Idempotency-Key`s, in order. */
  keys: string[];
  /** Refunds made. */
  refunds: number;
}

export async function merchantViewState(): Promise<MerchantViewBackendState> {
  return (await (await fetch('/__test/merchant-view')).json()) as MerchantViewBackendState;
}

/** Forgets every refund (each test starts from the seeded payments). */
export async function resetMerchantView(): Promise<void> {
  await fetch('/__test/merchant-view/reset', { method: 'POST' });
}

/** The element's `[part=…]` (first), in its shadow root. */
export function part(el: Element, name: string): HTMLElement | null {
  return el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
}

/** Every `[part=…]` in the element's shadow root. */
export function parts(el: Element, name: string): HTMLElement[] {
  return [...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];
}

/** Visible text, with the narrow and non-breaking spaces of Intl's formats as plain spaces, runs of space as one. */
export function shown(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** Waits until the view's box says `state` (`data-state`). */
export async function stateIs(el: Element, state: string): Promise<void> {
  await waitFor(() => part(el, 'base')?.dataset.state === state, `<${el.localName}> never reached ${state}`);
}
