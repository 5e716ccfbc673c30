// What an npm user ships for the pay button alone.
import '@paykit/elements/pay-button';
