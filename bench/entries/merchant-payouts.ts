// What a platform's page ships for <paykit-merchant-payouts> alone (not in paykit.js).
import '@paykit/elements/merchant-payouts';
