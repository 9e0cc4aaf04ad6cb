import { workspaceCallerOf } from '@rde/platform';
import type { Clock, Handlers } from '@rde/platform';
import type { billingOverview } from '@rde/proto';
import type { CreditBook } from '../app/credit-book';
import { overview } from '../domain/overview';
import type { PlanState } from '../domain/subscriptions';
import type { LedgerRepository } from '../store/ledger';
import { json, toLedgerEntry } from './handlers';

const RECENT_DEFAULT = 10;
const RECENT_MAX = 100;

/** No auto top-up exists yet (its change routes are not in the spec): always off. */
const AUTO_TOP_UP_OFF = { enabled: false, threshold_credits: null, topup_credits: null };

export interface OverviewDependencies {
  book: CreditBook;
  ledger: LedgerRepository;
  clock: Clock;
  planState(workspaceId: string): Promise<PlanState>;
}

/** Reads for any member of the workspace. */
export function overviewHandlers(deps: OverviewDependencies): Handlers<typeof billingOverview.OverviewServiceService> {
  return {
    async getOverview(request, context) {
      const { workspaceId } = workspaceCallerOf(context);
      const recent = Math.min(Math.max(request.recent, 0) || RECENT_DEFAULT, RECENT_MAX);
      const account = await deps.book.account(workspaceId);
      const [entries, planState] = await Promise.all([
        deps.ledger.recent(workspaceId, recent),
        deps.planState(workspaceId),
      ]);
      return {
        overviewJson: json({ ...overview(account, deps.clock.now()), ...planState }),
        recentEntries: entries.map(toLedgerEntry),
      };
    },
    async getAutoTopUp(_request, context) {
      workspaceCallerOf(context);
      return { settingJson: json(AUTO_TOP_UP_OFF) };
    },
  };
}
