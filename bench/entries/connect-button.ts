// What an npm user ships for the connect button alone.
import '@paykit/elements/connect-button';
