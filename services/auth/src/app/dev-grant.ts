import { RdeError, sleepUnlessAborted, type Logger, type PromiseClient } from '@rde/platform';
import type { billingGrants } from '@rde/proto';

/** Connects billing's grant service (throws when no billing address is configured). */
type ConnectGrants = () => Pick<PromiseClient<typeof billingGrants.CreditGrantServiceService>, 'grantCredits'>;

/** One grant id for the dev workspace's starting credits: every restart and replica asks for the same grant. */
export const DEV_GRANT_ID = 'dev-workspace-start';
const DEV_GRANT_REASON = 'Development credits (RDE_DEV_GRANT_CREDITS)';
/** How long a starting auth waits for billing to take the grant (distributed mode starts them together). */
const ATTEMPTS = 60;
const RETRY_MS = 1_000;

/**
 * Gives the dev workspace its starting credits through billing's operator grant (decision 0051),
 * retrying while billing is not up yet. Never throws: the dev workspace works without the grant,
 * and the next start asks again (the grant id makes that a no-op once it landed).
 */
export async function grantDevCredits(
  connect: ConnectGrants,
  workspaceId: string,
  credits: number,
  logger: Logger,
  signal: AbortSignal,
): Promise<void> {
  let grants: ReturnType<ConnectGrants>;
  try {
    grants = connect();
  } catch (error) {
    // Auth's own tests run without billing; a deployment always names it.
    logger.warn(
      { err: error, workspace_id: workspaceId },
      'no billing address: the dev workspace gets no starting grant',
    );
    return;
  }
  const request = { workspaceId, grantId: DEV_GRANT_ID, credits, reason: DEV_GRANT_REASON, grantedBy: 'dev-workspace' };
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      const { entry } = await grants.grantCredits(request);
      logger.info(
        { workspace_id: workspaceId, credits, entry_id: entry?.id },
        'dev workspace has its starting credits',
      );
      return;
    } catch (error) {
      if (error instanceof RdeError && error.httpStatus < 500) {
        // 409: an earlier start granted another RDE_DEV_GRANT_CREDITS; a start grants once, whatever the figure.
        logger.warn({ err: error, workspace_id: workspaceId }, 'dev workspace starting grant refused');
        return;
      }
      if (attempt === ATTEMPTS || !(await sleepUnlessAborted(RETRY_MS, signal))) {
        logger.error(
          { err: error, workspace_id: workspaceId },
          'dev workspace starting grant failed; the next start retries it',
        );
        return;
      }
    }
  }
}
