import { useCallback, useEffect, useState } from 'react';
import { problemOf, type ApiProblem } from './errors';

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Thrown for an error response: the problem as the page shows it. */
export class ApiError extends Error {
  constructor(readonly problem: ApiProblem) {
    super(problem.message);
  }
}

/** The data of a successful answer; an error answer throws its problem. */
export async function answered<T>(request: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw new ApiError(problemOf(response.status, error));
  return data as T;
}

/**
 * Runs a user's action, keeping its problem (if any) for the page to show and a busy flag so a
 * form is not sent twice.
 */
export function useAction() {
  const [problem, setProblem] = useState<ApiProblem>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await action();
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure.problem : { message: 'RDE could not be reached.' });
    } finally {
      setBusy(false);
    }
  }, []);
  return { problem, busy, run };
}

/**
 * What a page shows, loaded when it opens and again on `reload` (after an action changed it); the
 * problem, if loading failed. `load` must be stable (useCallback) or the page loads in a loop.
 */
export function useLoaded<T>(load: () => Promise<T>) {
  const [data, setData] = useState<T>();
  const { problem, run } = useAction();
  const reload = useCallback(() => run(async () => setData(await load())), [run, load]);
  useEffect(() => void reload(), [reload]);
  return { data, problem, reload };
}
