import { httpError, workspaceCallerOf, type Handlers } from '@rde/platform';
import { workflow } from '@rde/proto';
import { LintRefusal, type ApplyWorkflow } from '../app/apply-workflow';
import type { DeleteWorkflow } from '../app/delete-workflow';
import type { LintWorkflow } from '../app/lint-workflow';
import type { ListWorkflows } from '../app/list-workflows';
import type { ReadWorkflow } from '../app/read-workflow';
import type { SetWorkflowEnabled } from '../app/set-workflow-enabled';
import type { WorkflowSchema } from '../app/workflow-schema';
import type { Problem } from '../domain/problems';
import { runHandlers, type RunUseCases } from './runs';
import { toProto, toSummaryProto } from './workflow-view';

export interface WorkflowUseCases {
  readonly lint: LintWorkflow;
  readonly apply: ApplyWorkflow;
  readonly read: ReadWorkflow;
  readonly list: ListWorkflows;
  readonly setEnabled: SetWorkflowEnabled;
  readonly delete: DeleteWorkflow;
  readonly schema: WorkflowSchema;
  readonly runs: RunUseCases;
}

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** Proto ⇄ domain only; every RPC acts on the calling workspace. */
export function workflowHandlers(cases: WorkflowUseCases): Handlers<typeof workflow.WorkflowServiceService> {
  return {
    ...runHandlers(cases.runs),

    async lintWorkflow(request, context) {
      const linted = await cases.lint.lint(request.definitionJson, workspaceCallerOf(context), { allowBare: true });
      return { valid: linted.problems.length === 0, problems: linted.problems.map(toProblem) };
    },

    async applyWorkflow(request, context) {
      try {
        const applied = await cases.apply.apply(request.definitionJson, workspaceCallerOf(context));
        return {
          workflow: toProto(applied.workflow),
          changed: applied.changed,
          created: applied.created,
          webhookId: await cases.runs.webhooks.issueIfMissing(applied.workflow),
        };
      } catch (error) {
        if (error instanceof LintRefusal) throw lintRefusal(error.problems);
        throw error;
      }
    },

    async getWorkflow(request, context) {
      return {
        workflow: toProto(
          await cases.read.read(workspaceCallerOf(context).workspaceId, request.workflowId, request.version),
        ),
      };
    },

    async listWorkflows(request, context) {
      const page = { offset: request.page?.offset ?? 0, limit: request.page?.limit || 50 };
      const { workflows, total } = await cases.list.list(workspaceCallerOf(context).workspaceId, page);
      return { workflows: workflows.map(toSummaryProto), page: { ...page, total } };
    },

    async setWorkflowEnabled(request, context) {
      const { workspaceId } = workspaceCallerOf(context);
      return { workflow: toProto(await cases.setEnabled.set(workspaceId, request.workflowId, request.enabled)) };
    },

    async deleteWorkflow(request, context) {
      await cases.delete.delete(workspaceCallerOf(context).workspaceId, request.workflowId);
      return { workflowId: request.workflowId };
    },

    async getWorkflowSchema(request, context) {
      return {
        subject: request.subject,
        schemaJson: json(await cases.schema.schemaOf(request.subject, workspaceCallerOf(context))),
      };
    },
  };
}

/**
 * The spec's validation error (422 with a `detail` list): each problem's place as `loc` (`body`
 * then the path into the definition), its message and code, and the `invalid_payload` details.
 */
function lintRefusal(problems: Problem[]) {
  return httpError(422, {
    detail: problems.map((problem) => ({
      loc: ['body', ...problem.path.split('/').slice(1).map(unescapeToken)],
      msg: problem.message,
      type: problem.code,
      path: problem.path,
      ...problem.details,
    })),
  });
}

function unescapeToken(token: string): string | number {
  const text = token.replace(/~1/g, '/').replace(/~0/g, '~');
  return /^(0|[1-9]\d*)$/.test(text) ? Number(text) : text;
}

function toProblem(problem: Problem): workflow.LintProblem {
  return {
    path: problem.path,
    message: problem.message,
    code: problem.code,
    detailsJson: problem.details ? json(problem.details) : Buffer.alloc(0),
  };
}
