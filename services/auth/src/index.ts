import { randomBytes } from 'node:crypto';
import {
  clientSet,
  grpcModule,
  LoggedMail,
  ownDashboardUrl,
  SmtpMail,
  type Clock,
  type Logger,
  type Mail,
} from '@rde/platform';
import { auth, billingGrants, protoFileOf, signin } from '@rde/proto';
import { Claims } from './app/claims';
import { grantDevCredits } from './app/dev-grant';
import { CompleteSignIn } from './app/complete-sign-in';
import { EmailedLinks } from './app/emailed-links';
import { ExternalSignIn } from './app/external-sign-in';
import { FeedbackDesk } from './app/feedback';
import { Integrations, type Vendor } from './app/integrations';
import { Invites } from './app/invites';
import { MagicLinks } from './app/magic-links';
import { Members } from './app/members';
import { OAuthStateSecrets } from './app/oauth-state-secrets';
import { Passwords } from './app/passwords';
import { Sessions } from './app/sessions';
import { VendorOAuthClient } from './clients/oauth-vendor';
import { billingMemberCaps } from './clients/billing';
import { OpenIdProvider } from './clients/openid';
import { AUTH_VARIABLES, authConfig, type AuthConfig } from './config';
import { Keyring } from './domain/sealing';
import { authHandlers, type MemberChanges } from './grpc/handlers';
import { signInHandlers } from './grpc/sign-in-handlers';
import { AccountService, DEV_OWNER_EMAIL, DEV_WORKSPACE_ID } from './app/workspaces';
import { KeyService } from './app/api-keys';
import { ChangeMemberRole } from './app/change-member-role';
import { Ownership } from './app/ownership';
import { RemoveMember } from './app/remove-member';
import { openAuthStore, type AuthStore } from './store';

export const authModule = grpcModule({
  name: 'auth',
  defaultPort: 7101,
  dependencies: ['billing'],
  config: AUTH_VARIABLES,
  async build(ctx) {
    const config = authConfig(ctx.env);
    const { clock } = ctx.backends;
    const store = await ctx.own.documentStore();
    const counters = await ctx.own.keyValue();
    const mail = mailOf(config, ctx.logger);
    const repositories = await openAuthStore(store, clock);
    const keys = new KeyService(repositories, clock);
    const accounts = new AccountService(repositories, keys, clock);
    const devWorkspace = ctx.allInOne || Boolean(config.RDE_DEV_API_KEY);
    if (devWorkspace) {
      const minted = await accounts.ensureDevWorkspace(config.RDE_DEV_API_KEY);
      // The one time this key is shown: a developer copies it from here.
      if (minted) {
        ctx.logger.info(
          { workspace_id: DEV_WORKSPACE_ID, email: DEV_OWNER_EMAIL, api_key: minted },
          `dev workspace ready; its owner key (shown once): ${minted}`,
        );
      }
    }
    const memberCaps = billingMemberCaps(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const devGrantClients = clientSet(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const stopping = new AbortController();
    const members = new Members(repositories, clock, memberCaps);
    const sessions = new Sessions(repositories, clock);
    const complete = new CompleteSignIn(repositories, members, sessions, clock);
    const links = new EmailedLinks(repositories, clock);
    const stateSecrets = new OAuthStateSecrets(config.RDE_AUTH_SECRET ?? randomBytes(32).toString('hex'));
    const dashboardUrl = config.RDE_DASHBOARD_URL ?? ownDashboardUrl(config.RDE_PUBLIC_URL, config.PORT);
    const keyring = config.RDE_SECRETS_KEYRING ? new Keyring(config.RDE_SECRETS_KEYRING) : Keyring.ephemeral();
    const signIn = {
      magicLinks: new MagicLinks(
        repositories,
        links,
        complete,
        mail,
        counters,
        clock,
        dashboardUrl,
        config.RDE_MAGIC_LINK_TTL_MS,
      ),
      passwords: new Passwords(repositories, links, complete),
      sessions,
      claims: new Claims(
        repositories,
        members,
        keys,
        counters,
        clock,
        config.RDE_CLI_START_PER_IP_PER_MINUTE,
        config.RDE_CLI_CLAIM_TTL_MS,
      ),
      invites: new Invites(repositories, mail, clock, dashboardUrl),
      external: new ExternalSignIn(
        repositories,
        complete,
        clock,
        stateSecrets,
        googleOf(config),
        config.RDE_GOOGLE_REDIRECT_URL,
      ),
      integrations: new Integrations(repositories, clock, keyring, stateSecrets, vendorsOf(config)),
      feedback: new FeedbackDesk(repositories, mail, clock, ctx.logger, {
        inbox: config.RDE_SUPPORT_INBOX,
        issueWebhookUrl: config.RDE_ISSUE_WEBHOOK_URL,
      }),
    };
    return {
      services: [
        {
          fullName: 'rde.auth.v1.AuthService',
          definition: auth.AuthServiceService,
          handlers: authHandlers(accounts, keys, memberChanges(repositories, clock)),
          protoFile: protoFileOf('auth'),
        },
        {
          fullName: 'rde.auth.v1.SignInService',
          definition: signin.SignInServiceService,
          handlers: signInHandlers(signIn),
          protoFile: 'rde/auth/v1/signin.proto',
        },
      ],
      healthy: async () => (await store.ping(), await counters.ping(), true),
      // Awaited, so a ready RDE has granted its dev workspace's credits (billing starts first in one process).
      async startBackground() {
        if (!devWorkspace || config.RDE_DEV_GRANT_CREDITS === 0) return;
        const connect = () => devGrantClients.connect('billing', billingGrants.CreditGrantServiceService);
        await grantDevCredits(connect, DEV_WORKSPACE_ID, config.RDE_DEV_GRANT_CREDITS, ctx.logger, stopping.signal);
      },
      close: async () => {
        stopping.abort();
        devGrantClients.close();
        memberCaps.close();
        await mail.close();
      },
    };
  },
});

function memberChanges(repositories: AuthStore, clock: Clock): MemberChanges {
  const ownership = new Ownership(repositories);
  return {
    remove: new RemoveMember(repositories, ownership, clock),
    roles: new ChangeMemberRole(repositories, ownership),
  };
}

/** SMTP when configured; otherwise mail is logged, which only a developer's machine should do. */
function mailOf(config: AuthConfig, logger: Logger): Mail {
  if (config.RDE_SMTP_URL) return new SmtpMail(config.RDE_SMTP_URL, config.RDE_MAIL_FROM);
  logger.warn('RDE_SMTP_URL is not set: sign-in emails are logged, not sent (development only)');
  return new LoggedMail(logger);
}

/** The external identity provider when a client id is configured. */
function googleOf(config: AuthConfig): OpenIdProvider | undefined {
  if (!config.RDE_GOOGLE_CLIENT_ID) return undefined;
  return new OpenIdProvider({
    issuer: config.RDE_GOOGLE_ISSUER,
    clientId: config.RDE_GOOGLE_CLIENT_ID,
    clientSecret: config.RDE_GOOGLE_CLIENT_SECRET ?? '',
    scope: 'openid email',
  });
}

/** The CRM/ATS providers with OAuth config, each with its client. */
function vendorsOf(config: AuthConfig): Map<string, Vendor> {
  return new Map(
    Object.entries(config.RDE_INTEGRATIONS).map(([provider, declaration]) => [
      provider,
      { declaration, client: new VendorOAuthClient(declaration) },
    ]),
  );
}
