import type { StateSecrets } from '../clients/openid';
import { deriveFromState } from '../domain/secrets';

/** The PKCE verifier and nonce of an OAuth state, derived with the service's secret (never stored). */
export class OAuthStateSecrets {
  constructor(private readonly secret: string) {}

  of(state: string): StateSecrets {
    return {
      state,
      verifier: deriveFromState(this.secret, 'pkce', state),
      nonce: deriveFromState(this.secret, 'nonce', state),
    };
  }
}
