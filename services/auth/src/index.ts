import { grpcModule } from '@rde/platform';
import { auth, protoFileOf } from '@rde/proto';
import { authConfig } from './config';
import { authHandlers } from './grpc/handlers';
import { AccountService, DEV_OWNER_EMAIL, DEV_WORKSPACE_ID } from './service/accounts';
import { KeyService } from './service/keys';
import { openAuthStore } from './store';

export const authModule = grpcModule({
  name: 'auth',
  defaultPort: 7101,
  dependencies: [],
  async build(ctx) {
    const config = authConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_auth');
    const repositories = await openAuthStore(store, ctx.backends.clock);
    const keys = new KeyService(repositories, ctx.backends.clock);
    const accounts = new AccountService(repositories, keys, ctx.backends.clock);
    if (ctx.allInOne || config.RDE_DEV_API_KEY) {
      const minted = await accounts.ensureDevWorkspace(config.RDE_DEV_API_KEY);
      // The one time this key is shown: a developer copies it from here.
      if (minted) {
        ctx.logger.info(
          { workspace_id: DEV_WORKSPACE_ID, email: DEV_OWNER_EMAIL, api_key: minted },
          `dev workspace ready; its owner key (shown once): ${minted}`,
        );
      }
    }
    return {
      services: [
        {
          fullName: 'rde.auth.v1.AuthService',
          definition: auth.AuthServiceService,
          handlers: authHandlers(accounts, keys),
          protoFile: protoFileOf('auth'),
        },
      ],
      healthy: async () => (await store.ping(), true),
      close: async () => undefined,
    };
  },
});
