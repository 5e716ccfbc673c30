// What a platform's page ships for <paykit-merchant-payments> alone (not in paykit.js).
import '@paykit/elements/merchant-payments';
