// What an SPA that drives its own button ships: the headless checkout and return functions, no element.
export { handleReturn, startCheckout } from '@paykit/elements';
