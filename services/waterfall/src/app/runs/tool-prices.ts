import { errors, RdeError, type Caller, type ValidationIssue } from '@rde/platform';
import type { RunRequest } from '../../domain/runs/request';
import { isToolStep, runStepName, type ToolStep } from '../../domain/runs/tool-steps';
import type { CatalogClient } from '../../clients';

/**
 * Each tool step checked against the catalog's declaration of its method (an unknown one, a
 * required parameter not mapped, a parameter it does not declare: one 422 item each), and its
 * price per call, the step's worst case per row. Runs before anything is read or held.
 */
export async function toolPricesOf(
  catalog: CatalogClient,
  request: RunRequest,
  caller: Caller,
): Promise<Map<string, number>> {
  const prices = new Map<string, number>();
  const issues: ValidationIssue[] = [];
  for (const [index, step] of request.steps.entries()) {
    if (!isToolStep(step)) continue;
    const refuse = (msg: string) =>
      issues.push({ loc: ['body', request.stepsKey, index], msg, type: 'value_error.step' });
    const declared = await declarationOf(catalog, step, caller);
    if (!declared) {
      refuse(`${runStepName(step)} is not a method of the catalog (GET /tools lists them)`);
      continue;
    }
    const inputs = new Set(declared.inputs.map((input) => input.name));
    for (const input of declared.inputs) {
      if (input.required && step.args[input.name] === undefined) {
        refuse(`${runStepName(step)} needs args.${input.name}: the row column it is read from`);
      }
    }
    for (const param of Object.keys(step.args)) {
      if (!inputs.has(param)) refuse(`${runStepName(step)} has no parameter ${param}`);
    }
    prices.set(runStepName(step), Number(declared.cost?.amount?.millicredits ?? 0));
  }
  if (issues.length > 0) throw errors.validation(issues);
  return prices;
}

async function declarationOf(catalog: CatalogClient, step: ToolStep, caller: Caller) {
  try {
    const { method } = await catalog.getMethod({ tool: step.tool, method: step.method }, { caller });
    return method;
  } catch (error) {
    if (error instanceof RdeError && error.httpStatus === 404) return undefined;
    throw error;
  }
}
