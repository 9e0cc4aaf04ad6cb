import { caller, definition, workflowsUnderTest } from './support';

describe('apply: two replicas interleaving on one workflow', () => {
  test("an apply whose head move is beaten by another's roll-forward answers the version it wrote, once", async () => {
    const { workflows, apply } = await workflowsUnderTest();
    const first = await apply.apply(definition('raced', 'v1'), caller);
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
    const a = apply.apply(definition('raced', 'from A'), caller);
    await new Promise((resolve) => setImmediate(resolve));
    const b = await apply.apply(definition('raced', 'from B'), caller);
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
