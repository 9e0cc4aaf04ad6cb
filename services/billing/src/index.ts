import { grpcModule } from '@rde/platform';
import { billing, billingCaps, billingSessions, protoFileOf } from '@rde/proto';
import { Sessions } from './app/sessions';
import { SpendCaps } from './app/spend-caps';
import { billingConfig } from './config';
import { CreditBook } from './credit-book';
import { SettlementConsumer } from './events/settlement-consumer';
import { spendCapHandlers } from './grpc/caps';
import { billingHandlers } from './grpc/handlers';
import { sessionHandlers } from './grpc/sessions';
import { HoldReaper } from './jobs/hold-reaper';
import { AccountStore, type AccountDocument } from './store/accounts';
import type { LedgerEntry } from './domain/ledger';
import { SpendCapRepository } from './store/caps';
import { LedgerStore } from './store/ledger';
import { SessionRepository, type SessionDocument } from './store/sessions';

export const billingModule = grpcModule({
  name: 'billing',
  dependencies: [],
  async build(ctx) {
    const config = billingConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_billing');
    const bus = await ctx.backends.bus('billing');
    const keyValue = await ctx.backends.keyValue('billing');
    const ledger = new LedgerStore(store.collection<LedgerEntry>('ledger'));
    await ledger.createIndexes();
    const accountCollection = store.collection<AccountDocument>('accounts');
    const accounts = new AccountStore(accountCollection);
    const book = new CreditBook(accounts, ledger, ctx.backends.clock, ctx.logger);
    const capStore = new SpendCapRepository(accountCollection);
    const sessionStore = new SessionRepository(store.collection<SessionDocument>('sessions'));
    await sessionStore.createIndexes();
    const consumer = new SettlementConsumer(bus, book, ctx.logger, {
      pauseAfterApplyMs: config.RDE_FAULT_PAUSE_AFTER_APPLY_MS,
    });
    const reaper = new HoldReaper(book, keyValue, ctx.logger, config.RDE_BILLING_REAPER_INTERVAL_MS);
    return {
      services: [
        {
          fullName: 'rde.billing.v1.BillingService',
          definition: billing.BillingServiceService,
          handlers: billingHandlers({ book, ledger, defaultHoldTtlMs: config.RDE_BILLING_HOLD_TTL_MS }),
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
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping(), keyValue.ping()]), true),
      async startBackground() {
        await consumer.start();
        reaper.start();
      },
      async close() {
        await reaper.stop();
        await consumer.stop();
      },
    };
  },
});
