import { grpcModule } from '@rde/platform';
import { billing, protoFileOf } from '@rde/proto';
import { billingConfig } from './config';
import { CreditBook } from './credit-book';
import { SettlementConsumer } from './events/settlement-consumer';
import { billingHandlers } from './grpc/handlers';
import { registerHoldMetrics } from './metrics';
import { HoldReaper } from './jobs/hold-reaper';
import { AccountStore, type AccountDocument } from './store/accounts';
import type { LedgerEntry } from './domain/ledger';
import { LedgerStore } from './store/ledger';
import { Settlements } from './settlements';

export const billingModule = grpcModule({
  name: 'billing',
  defaultPort: 7102,
  dependencies: [],
  async build(ctx) {
    const config = billingConfig(ctx.env);
    const store = await ctx.backends.documentStore('rde_billing');
    const bus = await ctx.backends.bus('billing');
    const keyValue = await ctx.backends.keyValue('billing');
    const ledger = new LedgerStore(store.collection<LedgerEntry>('ledger'));
    await ledger.createIndexes();
    const accounts = new AccountStore(store.collection<AccountDocument>('accounts'));
    registerHoldMetrics(store.collection<AccountDocument>('accounts'), ctx.backends.clock);
    const book = new CreditBook(accounts, ledger, ctx.backends.clock, ctx.logger);
    const settlements = new Settlements(accounts, ledger, book, ctx.backends.clock, ctx.logger);
    const consumer = new SettlementConsumer(bus, settlements, ctx.logger, {
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
