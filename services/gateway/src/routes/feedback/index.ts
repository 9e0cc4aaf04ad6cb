import type { FastifyInstance } from 'fastify';
import type { signin } from '@rde/proto';
import type { GatewayDependencies } from '../../dependencies';
import {
  createdReport,
  errorResponses,
  feedbackBody,
  pageQuery,
  reportPage,
  supportBody,
  supportErrors,
  supportReceipt,
} from './schemas';

interface ReportBody {
  message: string;
  category?: string;
  email?: string;
}

/** Product feedback of a workspace, and the support widget (optional bearer). */
export async function feedbackRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { signin: signIn } = deps.clients;

  app.post<{ Body: ReportBody }>(
    '/api/v2/feedback',
    { schema: { body: feedbackBody, response: { 201: createdReport, ...errorResponses } } },
    async (request, reply) => {
      const { message, category = '' } = request.body;
      const { feedback } = await signIn.createFeedback(
        { message, category, fileIssue: false },
        { caller: request.caller },
      );
      return reply.code(201).send(publicReport(feedback!));
    },
  );

  app.get<{ Querystring: { offset: number; limit: number } }>(
    '/api/v2/feedback',
    { schema: { querystring: pageQuery, response: { 200: reportPage, ...errorResponses } } },
    async (request) => {
      const { offset, limit } = request.query;
      const { feedback, total } = await signIn.listFeedback({ offset, limit }, { caller: request.caller });
      return { feedback: feedback.map(publicReport), total, offset, limit };
    },
  );

  app.post<{ Body: ReportBody }>(
    '/api/v2/support',
    {
      config: { optionalBearer: true },
      schema: {
        security: [{}, { bearer: [] }],
        body: supportBody,
        response: { 200: supportReceipt, ...supportErrors },
      },
    },
    async (request) => {
      const { message, category = '', email = '' } = request.body;
      const { feedbackId } = await signIn.submitSupport({ message, category, email }, { caller: request.caller });
      return { ok: true, stored: feedbackId !== '' };
    },
  );
}

function publicReport(report: signin.Feedback) {
  return {
    id: report.id,
    title: report.title,
    message: report.message,
    category: report.category,
    user_id: report.userId,
    created_at: new Date(report.createdAtMs).toISOString(),
  };
}
