import { createLogger, InMemoryDocumentStore, ManualClock, type Caller } from '@rde/platform';
import { ApplyWorkflow } from '../src/app/apply-workflow';
import type { LintWorkflow } from '../src/app/lint-workflow';
import { DefinitionShape } from '../src/domain/shape';
import { WorkflowsRepository } from '../src/store/workflows';

/** Lint is not under test in these suites: shape-checked definitions pass as they are. */
const shape = new DefinitionShape();
const passingLint = {
  lint: async (json: Uint8Array) => {
    const shaped = shape.check(Buffer.from(json).toString(), { allowBare: true });
    if (!shaped.ok) throw new Error(JSON.stringify(shaped.problems));
    return { definition: shaped.definition };
  },
} as unknown as LintWorkflow;

export const caller = { workspaceId: 'ws_unit', userId: 'usr_unit' } as Caller;
export const testLogger = createLogger('workflow-test', 'silent');

const step = { id: 'find', uses: 'search.people_search', with: { titles: ['cto'] } };

/** A manual workflow's definition as a client sends it. */
export const definition = (name: string, description = '') =>
  Buffer.from(JSON.stringify({ name, description, trigger: { type: 'manual' }, steps: [step] }));

/** Workflows on an in-memory store, applied without lint. */
export async function workflowsUnderTest() {
  const store = new InMemoryDocumentStore();
  const clock = new ManualClock();
  const workflows = await WorkflowsRepository.open(store);
  const apply = new ApplyWorkflow(passingLint, workflows, clock);
  return { store, clock, workflows, apply };
}
