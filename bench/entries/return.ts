// What an npm user ships for the return handler alone.
import '@paykit/elements/return';
