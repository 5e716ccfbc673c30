import { expect } from '@open-wc/testing';
import { calculatePKCECodeChallenge } from 'oauth4webapi';
import { codeChallengeOf, randomToken } from './pkce.js';

describe('PKCE', () => {
  it('passes the vector of RFC 7636 Appendix B', async () => {
    expect(await codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).to.equal(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('agrees with oauth4webapi on random verifiers', async () => {
    for (let i = 0; i < 50; i += 1) {
      const verifier = randomToken();
      expect(await codeChallengeOf(verifier)).to.equal(await calculatePKCECodeChallenge(verifier));
    }
  });

  it('makes 43-character unreserved tokens (256 bits) that do not repeat', () => {
    const tokens = new Set(Array.from({ length: 200 }, randomToken));
    expect(tokens.size).to.equal(200);
    for (const token of tokens) expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
  });
});
