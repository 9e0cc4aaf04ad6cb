import { errors, type Caller, type Clock } from '@rde/platform';
import type { Definition } from '../domain/definition';
import type { Problem } from '../domain/problems';
import { definitionHash, newWorkflowId, type WorkflowRecord, type WorkflowSummary } from '../domain/workflow';
import type { WorkflowsRepository } from '../store/workflows';
import type { LintWorkflow } from './lint-workflow';

/** An apply refused by lint: the grpc layer answers the problems as a 422. */
export class LintRefusal extends Error {
  constructor(readonly problems: Problem[]) {
    super(`the definition has ${problems.length} lint problem(s)`);
  }
}

export interface Applied {
  readonly workflow: WorkflowRecord;
  readonly changed: boolean;
  readonly created: boolean;
}

/** Rounds of "someone else moved the head first" before giving up: each round another apply won. */
const ATTEMPTS = 8;

/**
 * Creates a workflow by name or stores a changed definition as version N+1 (decision 0072). The
 * version document is written first (its `_id` is taken once), then the head moves from N; a
 * version left without its head (a crash between the two writes) is rolled forward by the next apply,
 * and the apply that wrote it answers that version whoever moved the head.
 */
export class ApplyWorkflow {
  constructor(
    private readonly lint: LintWorkflow,
    private readonly workflows: WorkflowsRepository,
    private readonly clock: Clock,
  ) {}

  async apply(json: Uint8Array, caller: Caller): Promise<Applied> {
    const linted = await this.lint.lint(json, caller, { allowBare: false });
    if (!('definition' in linted)) throw new LintRefusal(linted.problems);
    const { definition } = linted;
    const hash = definitionHash(definition);
    let head: WorkflowSummary | null = await this.workflows.claimName(this.newHead(caller.workspaceId, definition));
    for (let attempt = 0; attempt < ATTEMPTS && head; attempt += 1) {
      if (head.latestHash === hash) return this.answer(head, head.latestVersion, false, false);
      const version = {
        workflowId: head.id,
        version: head.latestVersion + 1,
        definition,
        hash,
        createdAt: this.clock.now(),
      };
      if (await this.workflows.insertVersion(version)) {
        // Version N+1 is ours alone (its _id is taken once), so the head leaves N only onto it: if
        // this advance loses, a concurrent apply's roll-forward already moved the head here.
        await this.workflows.advance(head.id, head.latestVersion, version);
        // Whoever stores version 1 created the workflow, whichever request claimed its name.
        return this.answer(head, version.version, true, version.version === 1);
      }
      await this.rollForward(head);
      head = await this.workflows.head(head.id);
    }
    throw errors.conflict({
      detail: `workflow ${definition.name} was changed or deleted by other requests meanwhile; apply again`,
    });
  }

  /** Moves a head left behind its newest version (taken by a concurrent or crashed apply) onto it. */
  private async rollForward(head: WorkflowSummary): Promise<void> {
    const taken = await this.workflows.findVersion(head.id, head.latestVersion + 1);
    if (taken) await this.workflows.advance(head.id, head.latestVersion, taken);
  }

  private async answer(head: WorkflowSummary, version: number, changed: boolean, created: boolean): Promise<Applied> {
    const [current, stored] = await Promise.all([
      this.workflows.head(head.id),
      this.workflows.findVersion(head.id, version),
    ]);
    if (!current || !stored)
      throw errors.conflict({ detail: `workflow ${head.name} was deleted meanwhile; apply again` });
    return { workflow: { ...current, version: stored }, changed, created };
  }

  private newHead(workspaceId: string, definition: Definition): WorkflowSummary {
    const now = this.clock.now();
    return {
      id: newWorkflowId(),
      workspaceId,
      name: definition.name,
      description: definition.description ?? '',
      triggerType: definition.trigger.type,
      enabled: true,
      latestVersion: 0,
      latestHash: '',
      createdAt: now,
      updatedAt: now,
    };
  }
}
