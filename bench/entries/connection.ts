// What a platform's page ships for <paykit-connection> alone (not in paykit.js).
import '@paykit/elements/connection';
