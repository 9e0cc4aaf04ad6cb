import { RdeError } from '@rde/platform';

/**
 * The RPC's answer, or undefined when the service refuses with one of these HTTP statuses: a skill
 * resource that is not there (404), or custom skills for a key without a signed-in user (403),
 * which the resources simply leave out. Anything else is the exchange's error.
 */
export async function absentWhen<T>(statuses: readonly number[], run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof RdeError && statuses.includes(error.httpStatus)) return undefined;
    throw error;
  }
}
