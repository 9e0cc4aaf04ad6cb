import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { grpcModule } from '@rde/platform';
import { workflow, protoFileOf } from '@rde/proto';
import { ApplyWorkflow } from './app/apply-workflow';
import { CallWorkflow } from './app/call-workflow';
import { DeleteWorkflow } from './app/delete-workflow';
import { LintWorkflow } from './app/lint-workflow';
import { ListWorkflows } from './app/list-workflows';
import { QueueRun } from './app/queue-run';
import { ReadRuns } from './app/read-runs';
import { ReadWorkflow } from './app/read-workflow';
import { RunStep } from './app/run-step';
import { SetWorkflowEnabled } from './app/set-workflow-enabled';
import { Webhooks } from './app/webhooks';
import { WorkRun } from './app/work-run';
import { WorkflowSchema } from './app/workflow-schema';
import { catalogMethods } from './clients/catalog';
import { stepCalls } from './clients/steps';
import { ENRICH_RUN_POLL_MS, WORKFLOW_VARIABLES, workflowConfig } from './config';
import { InputCheck } from './domain/input-check';
import { RunQueue } from './events/run-queue';
import { workflowHandlers } from './grpc/handlers';
import { RunWork } from './jobs/run-work';
import { WorkflowRunsRepository } from './store/runs';
import { WebhooksRepository } from './store/webhooks';
import { WorkflowsRepository } from './store/workflows';

/**
 * Workflows (decisions 0072-0075): definitions linted and applied as numbered versions; runs queued
 * on `workflow.runs` and worked by any replica, step by step, each paid call through the services'
 * own contracts (datasets: the dataset service's); inbound webhooks. Steps' `uses` are checked
 * against the catalog's RPCs.
 */
export const workflowModule = grpcModule({
  name: 'workflow',
  defaultPort: 7106,
  dependencies: ['catalog', 'waterfall', 'dataset'],
  config: WORKFLOW_VARIABLES,
  async build(ctx) {
    const config = workflowConfig(ctx.env);
    const store = await ctx.own.documentStore();
    const bus = await ctx.own.bus();
    const [workflows, runs, webhookIds] = await Promise.all([
      WorkflowsRepository.open(store),
      WorkflowRunsRepository.open(store),
      WebhooksRepository.open(store),
    ]);
    const methods = catalogMethods(ctx.addresses, config.RDE_RPC_DEADLINE_MS);
    const calls = stepCalls(ctx.addresses, {
      deadlineMs: config.RDE_WORKFLOW_STEP_DEADLINE_MS,
      pollMs: ENRICH_RUN_POLL_MS,
      sleep: (ms) => sleep(ms),
    });
    const { clock } = ctx.backends;
    const lint = new LintWorkflow(methods);
    const read = new ReadWorkflow(workflows);
    const queue = new RunQueue(bus, ctx.logger);
    const queueRun = new QueueRun(workflows, runs, new InputCheck(), queue, clock, ctx.logger);
    const counters = await ctx.own.keyValue();
    const webhooks = new Webhooks(webhookIds, workflows, queueRun, counters, clock, config.RDE_WEBHOOK_RATE_PER_MINUTE);
    const worker = new WorkRun({
      runs,
      workflows,
      step: new RunStep(calls, clock),
      clock,
      logger: ctx.logger,
      owner: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
      leaseMs: config.RDE_WORKFLOW_RUN_LEASE_MS,
    });
    const work = new RunWork(queue, worker, runs, clock, ctx.logger, {
      slots: config.RDE_WORKFLOW_RUN_SLOTS,
      sweepMs: config.RDE_WORKFLOW_RUN_SWEEP_MS,
      queuedGraceMs: config.RDE_WORKFLOW_QUEUED_GRACE_MS,
    });
    return {
      services: [
        {
          fullName: 'rde.workflow.v1.WorkflowService',
          definition: workflow.WorkflowServiceService,
          handlers: workflowHandlers({
            lint,
            apply: new ApplyWorkflow(lint, workflows, clock),
            read,
            list: new ListWorkflows(workflows),
            setEnabled: new SetWorkflowEnabled(workflows, read, clock),
            delete: new DeleteWorkflow(workflows, clock),
            schema: new WorkflowSchema(lint),
            runs: { call: new CallWorkflow(workflows, queueRun), read: new ReadRuns(runs, workflows), webhooks, clock },
          }),
          protoFile: protoFileOf('workflow'),
        },
      ],
      healthy: async () => (await Promise.all([store.ping(), bus.ping()]), true),
      startBackground: () => work.start(),
      close: async () => {
        await work.stop();
        methods.close();
        calls.close();
      },
    };
  },
});
