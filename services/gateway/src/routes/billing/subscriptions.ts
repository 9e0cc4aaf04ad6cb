import type { FastifyInstance } from 'fastify';
import type { GatewayDependencies } from '../../dependencies';
import { parseJson } from './plan-state';
import {
  cancelBody,
  changeResult,
  creditCheckoutBody,
  errorsOf,
  planChoiceBody,
  subscriptionResult,
  urlResult,
} from './schemas';

/** The payment provider's signature header on webhook deliveries. */
const SIGNATURE_HEADER = 'stripe-signature';

type PlanChoice = { Body: { plan_id: string; cadence: string } };

/** Subscriptions on the payment provider (decision 0022); billing enforces owner-only and 503. */
export async function subscriptionRoutes(app: FastifyInstance, deps: GatewayDependencies): Promise<void> {
  const { subscriptions } = deps.clients;
  const schema = (body: object | undefined, result: object, ...statuses: number[]) => ({
    schema: {
      ...(body && { body }),
      response: { 200: result, ...errorsOf(400, 403, 413, 415, 502, 503, ...statuses) },
    },
  });

  app.post<PlanChoice>(
    '/api/v2/billing/subscription/checkout',
    { ...schema(planChoiceBody, urlResult, 409), config: { idempotency: 'header' } },
    async (request) => {
      const { plan_id: planId, cadence } = request.body;
      return { url: (await subscriptions.checkout({ planId, cadence }, { caller: request.caller })).url };
    },
  );

  app.post<{ Body: { credits: number } }>(
    '/api/v2/billing/credits/checkout',
    { ...schema(creditCheckoutBody, urlResult, 402), config: { idempotency: 'header' } },
    async (request) => ({
      url: (await subscriptions.creditCheckout({ credits: request.body.credits }, { caller: request.caller })).url,
    }),
  );

  app.post<PlanChoice>(
    '/api/v2/billing/subscription/change',
    schema(planChoiceBody, changeResult, 400, 404),
    async (request) => {
      const { plan_id: planId, cadence } = request.body;
      return parseJson(
        (await subscriptions.changeSubscription({ planId, cadence }, { caller: request.caller })).resultJson,
      );
    },
  );

  app.post<{ Body: { resume: boolean } }>(
    '/api/v2/billing/subscription/cancel',
    schema(cancelBody, subscriptionResult, 404),
    async (request) =>
      parseJson(
        (await subscriptions.cancelSubscription({ resume: request.body.resume }, { caller: request.caller }))
          .resultJson,
      ),
  );

  app.post('/api/v2/billing/portal', schema(undefined, urlResult, 422), async (request) => ({
    url: (await subscriptions.openPortal({}, { caller: request.caller })).url,
  }));

  // The signature covers the raw bytes: this route alone reads its body unparsed.
  await app.register(async (raw) => {
    // The app's JSON parser is replaced in this context only.
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.post<{ Body: Buffer | string | undefined }>(
      '/api/v2/billing/stripe/webhook',
      {
        config: { public: true },
        schema: {
          security: [],
          response: {
            200: { type: 'object', properties: { received: { type: 'boolean' } } },
            ...errorsOf(400, 413, 415, 503),
          },
        },
      },
      async (request) => {
        const signature = request.headers[SIGNATURE_HEADER];
        await subscriptions.applyProviderEvent({
          // A delivery without a body (or a text one) still gets the signature check, hence a 400.
          payload: Buffer.from(request.body ?? ''),
          signature: (Array.isArray(signature) ? signature[0] : signature) ?? '',
        });
        return { received: true };
      },
    );
  });
}
