import { InMemoryDocumentStore, ManualClock, type Caller } from '@rde/platform';
import { ApplyWorkflow } from '../src/app/apply-workflow';
import type { LintWorkflow } from '../src/app/lint-workflow';
import { DefinitionShape } from '../src/domain/shape';
import { WorkflowsRepository } from '../src/store/workflows';

/** Lint is not under test here: shape-checked definitions pass as they are. */
const shape = new DefinitionShape();
const passingLint = {
  lint: async (json: Uint8Array) => {
    const shaped = shape.check(Buffer.from(json).toString(), { allowBare: true });
    if (!shaped.ok) throw new Error(JSON.stringify(shaped.problems));
    return { definition: shaped.definition };
  },
} as unknown as LintWorkflow;

const caller = { workspaceId: 'ws_race', userId: 'usr_race' } as Caller;
const step = { id: 'find', uses: 'search.people_search', with: { titles: ['cto'] } };
const definition = (description: string) =>
  Buffer.from(JSON.stringify({ name: 'raced', description, trigger: { type: 'manual' }, steps: [step] }));

describe('apply: two replicas interleaving on one workflow', () => {
  test("an apply whose head move is beaten by another's roll-forward answers the version it wrote, once", async () => {
    const workflows = await WorkflowsRepository.open(new InMemoryDocumentStore());
    const apply = new ApplyWorkflow(passingLint, workflows, new ManualClock());
    const first = await apply.apply(definition('v1'), caller);
    expect(first.workflow.version.version).toBe(1);

    // A writes version 2, then stalls before moving the head; B arrives meanwhile.
    let releaseA!: () => void;
    const aStalled = new Promise<void>((resolve) => (releaseA = resolve));
    const advance = workflows.advance.bind(workflows);
    let stalls = 1;
    workflows.advance = async (...args) => {
      if (stalls-- > 0) await aStalled;
      return advance(...args);
    };
    const a = apply.apply(definition('from A'), caller);
    await new Promise((resolve) => setImmediate(resolve));
    const b = await apply.apply(definition('from B'), caller);
    releaseA();
    const aApplied = await a;

    expect(b.workflow.version.version).toBe(3);
    expect(aApplied).toMatchObject({ changed: true, created: false });
    expect(aApplied.workflow.version.version).toBe(2);
    expect(aApplied.workflow.version.definition.description).toBe('from A');
    const head = await workflows.head(first.workflow.id);
    expect(head?.latestVersion).toBe(3);
    expect(await workflows.findVersion(first.workflow.id, 4)).toBeNull();
  });
});
