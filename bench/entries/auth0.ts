// Comparison: @auth0/auth0-spa-js, redirect and callback only.
import { createAuth0Client } from '@auth0/auth0-spa-js';

const client = await createAuth0Client({ domain: 'tenant.example', clientId: 'id' });
if (location.search.includes('code=')) await client.handleRedirectCallback();
else await client.loginWithRedirect();
