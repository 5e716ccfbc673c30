// Comparison: oidc-client-ts, signinRedirect and signinCallback only.
import { UserManager } from 'oidc-client-ts';

const manager = new UserManager({ authority: 'https://idp.example', client_id: 'id', redirect_uri: location.href });
if (location.search.includes('code=')) await manager.signinCallback();
else await manager.signinRedirect();
