import type { Chain } from '../../domain/enrich/chains';
import type { ProviderPort } from '../../clients/providers';

/**
 * The most one row of a chain can cost, in millicredits: rule 1 bills one hit per row (the dearest
 * step), plus one validation on personal_email. Prices are the catalog's, never copied.
 */
export async function worstCasePerRow(providers: ProviderPort, chain: Chain): Promise<number> {
  const prices = await Promise.all(
    chain.steps.map(async (step) => (await providers.contract(step.tool, step.method)).price),
  );
  const validation = chain.validator
    ? (await providers.contract(chain.validator.tool, chain.validator.method)).price
    : 0;
  return Math.max(0, ...prices) + validation;
}
