import { grpcModule } from '@rde/platform';
import {
  billing,
  billingCaps,
  billingGrants,
  billingOverview,
  billingSessions,
  billingSubscriptions,
  protoFileOf,
} from '@rde/proto';
import { Sessions } from './app/sessions';
import { AccountEntries } from './app/account-entries';
import { PlanGrants } from './app/grants';
import { OperatorGrants } from './app/operator-grants';
import { SpendCaps } from './app/spend-caps';
import { Checkouts } from './app/checkouts';
import { PlanChanges } from './app/plan-changes';
import { ProviderEvents } from './app/provider-events';
import type { SubscriptionContext } from './app/subscription-context';
import { paymentProvider } from './clients/stripe';
import { BILLING_VARIABLES, billingConfig, billingReturnUrl } from './config';
import { CreditBook } from './app/credit-book';
import { SettlementConsumer } from './events/settlement-consumer';
import { spendCapHandlers } from './grpc/caps';
import { creditGrantHandlers } from './grpc/grants';
import { billingHandlers } from './grpc/handlers';
import { registerHoldMetrics } from './store/hold-metrics';
import { overviewHandlers } from './grpc/overview';
import { sessionHandlers } from './grpc/sessions';
import { subscriptionHandlers } from './grpc/subscriptions';
import { LeasedTimer } from './jobs/leased-timer';
import { AccountsRepository, type AccountDocument } from './store/accounts';
import type { LedgerEntry } from './domain/ledger';
import { SpendCapsRepository } from './store/caps';
import { GrantsRepository } from './store/grants';
import { LedgerRepository } from './store/ledger';
import { Settlements } from './app/settlements';
import { SessionsRepository, type SessionDocument } from './store/sessions';
import { SubscriptionsRepository, type ProviderEventDocument } from './store/subscriptions';
import { planStateOf, type SubscriptionDocument } from './domain/subscriptions';
import { DueDowngrades } from './jobs/due-downgrades';

export const billingModule = grpcModule({
  name: 'billing',
  defaultPort: 7102,
  dependencies: [],
  config: BILLING_VARIABLES,
  async build(ctx) {
    const config = billingConfig(ctx.env);
    const store = await ctx.own.documentStore();
    const bus = await ctx.own.bus();
    const keyValue = await ctx.own.keyValue();
    const ledger = new LedgerRepository(store.collection<LedgerEntry>('ledger'));
    await ledger.createIndexes();
    const accountCollection = store.collection<AccountDocument>('accounts');
    const accounts = new AccountsRepository(accountCollection);
    registerHoldMetrics(accountCollection, ctx.backends.clock);
    const book = new CreditBook(accounts, ledger, ctx.backends.clock, ctx.logger);
    const settlements = new Settlements(accounts, ledger, book, ctx.backends.clock, ctx.logger);
    const capStore = new SpendCapsRepository(accountCollection);
    const sessionStore = new SessionsRepository(store.collection<SessionDocument>('sessions'));
    await sessionStore.createIndexes();
    const subscriptionStore = new SubscriptionsRepository(
      store.collection<SubscriptionDocument>('subscriptions'),
      store.collection<ProviderEventDocument>('stripe_events'),
    );
    await subscriptionStore.createIndexes();
    const grantRepository = new GrantsRepository(accountCollection);
    const entries = new AccountEntries(book, ledger, grantRepository);
    const grants = new PlanGrants(book, entries, grantRepository, subscriptionStore, ctx.backends.clock, ctx.logger);
    const subscriptionContext: SubscriptionContext = {
      provider: paymentProvider(config.RDE_STRIPE_SECRET_KEY, config.RDE_STRIPE_API_BASE),
      subscriptions: subscriptionStore,
      caps: capStore,
      book,
      grants,
      clock: ctx.backends.clock,
      logger: ctx.logger,
      options: { webhookSecret: config.RDE_STRIPE_WEBHOOK_SECRET, returnUrl: billingReturnUrl(config) },
    };
    const dueDowngrades = new DueDowngrades(subscriptionContext);
    const planState = async (workspaceId: string) => planStateOf(await subscriptionStore.find(workspaceId));
    // Period-end work: downgrades due, then monthly grants due (a downgrade first, so the grant
    // that starts the new period is the new plan's).
    const periodJobs = new LeasedTimer(
      'subscription-periods',
      keyValue,
      ctx.logger,
      config.RDE_BILLING_PERIOD_JOBS_INTERVAL_MS,
      async () => (await dueDowngrades.apply()) + (await grants.grantDue()),
    );
    const consumer = new SettlementConsumer(bus, settlements, ctx.logger, {
      pauseAfterApplyMs: config.RDE_FAULT_PAUSE_AFTER_APPLY_MS,
    });
    const reaper = new LeasedTimer('hold-reaper', keyValue, ctx.logger, config.RDE_BILLING_REAPER_INTERVAL_MS, () =>
      book.releaseExpiredHolds(),
    );
    return {
      services: [
        {
          fullName: 'rde.billing.v1.BillingService',
          definition: billing.BillingServiceService,
          handlers: billingHandlers({
            book,
            ledger,
            defaultHoldTtlMs: config.RDE_BILLING_HOLD_TTL_MS,
            planState,
          }),
          protoFile: protoFileOf('billing'),
        },
        {
          fullName: 'rde.billing.v1.SpendCapService',
          definition: billingCaps.SpendCapServiceService,
          handlers: spendCapHandlers(new SpendCaps(book, capStore, ctx.backends.clock)),
          protoFile: 'rde/billing/v1/caps.proto',
        },
        {
          fullName: 'rde.billing.v1.SessionService',
          definition: billingSessions.SessionServiceService,
          handlers: sessionHandlers(new Sessions(book, sessionStore, capStore, ctx.backends.clock)),
          protoFile: 'rde/billing/v1/sessions.proto',
        },
        {
          fullName: 'rde.billing.v1.OverviewService',
          definition: billingOverview.OverviewServiceService,
          handlers: overviewHandlers({ book, ledger, clock: ctx.backends.clock, planState }),
          protoFile: 'rde/billing/v1/overview.proto',
        },
        {
          fullName: 'rde.billing.v1.SubscriptionService',
          definition: billingSubscriptions.SubscriptionServiceService,
          handlers: subscriptionHandlers({
            checkouts: new Checkouts(subscriptionContext),
            changes: new PlanChanges(subscriptionContext),
            events: new ProviderEvents(subscriptionContext),
          }),
          protoFile: 'rde/billing/v1/subscriptions.proto',
        },
        {
          fullName: 'rde.billing.v1.CreditGrantService',
          definition: billingGrants.CreditGrantServiceService,
          handlers: creditGrantHandlers(new OperatorGrants(book, ledger, entries, ctx.backends.clock, ctx.logger)),
          protoFile: 'rde/billing/v1/grants.proto',
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping(), keyValue.ping()]), true),
      async startBackground() {
        await consumer.start();
        reaper.start();
        periodJobs.start();
      },
      async close() {
        await periodJobs.stop();
        await reaper.stop();
        await consumer.stop();
      },
    };
  },
});
