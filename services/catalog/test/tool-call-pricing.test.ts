import {
  createLogger,
  CreditHolds,
  InMemoryDocumentStore,
  ManualClock,
  PaidRunKit,
  RdeError,
  type Caller,
} from '@rde/platform';
import { billingEvents } from '@rde/proto';
import { ToolCalls } from '../src/app/tool-call';
import type { CatalogClients } from '../src/clients';
import { Catalog } from '../src/domain/catalog';
import { ParameterResolver, type JsonObject } from '../src/domain/parameters';
import { ProviderFailure } from '../src/providers/caller';
import { RunRepository } from '../src/store/runs';
import { TEST_PROVIDER } from './fixtures';

const caller: Caller = {
  workspaceId: 'ws_1',
  userId: 'usr_1',
  role: 'member',
  keyId: 'key_1',
  sessionId: 'ses_1',
  requestId: '',
};

/** What each cost unit charges, with the vendor's answer scripted and the run's one write read back. */
describe('tool call charges by cost unit', () => {
  let answer: () => Promise<JsonObject>;
  let reserves: number;
  let runs: RunRepository;
  let toolCalls: ToolCalls;

  beforeEach(async () => {
    reserves = 0;
    const clock = new ManualClock();
    runs = await RunRepository.open(new InMemoryDocumentStore(), clock);
    const clients = {
      billing: {
        reserve: async () => {
          reserves++;
          return {
            holdId: '',
            account: {
              workspaceId: 'ws_1',
              balance: { millicredits: 50_000 },
              reserved: { millicredits: 2_000 },
              available: { millicredits: 48_000 },
              openHolds: 1,
            },
          };
        },
      },
      dataset: {},
      close: () => undefined,
    } as unknown as CatalogClients;
    toolCalls = new ToolCalls({
      catalog: new Catalog([TEST_PROVIDER]),
      resolver: new ParameterResolver(),
      runs,
      clients,
      providers: { call: () => answer() },
      kit: new PaidRunKit({
        holds: new CreditHolds(clients.billing, 60_000),
        clock,
        logger: createLogger('test', 'silent'),
        publish: async () => undefined,
      }),
      logger: createLogger('test', 'silent'),
    });
  });

  const call = (method: string, payload: JsonObject) =>
    toolCalls.call({ tool: 'people_db_x', method, input: { payload }, dryRun: false, runId: '' }, caller);

  /** The settlement the run's single write put in its outbox. */
  async function settlementOf(runId: string): Promise<billingEvents.Settlement> {
    const run = await runs.get(runId);
    const outbox = run!._outbox as { value: string }[];
    expect(outbox).toHaveLength(1);
    return billingEvents.Settlement.decode(Buffer.from(outbox[0].value, 'base64'));
  }

  test('a per-hit method charges a hit', async () => {
    answer = async () => ({ person: { name: 'Ada' } });
    const { meta } = await call('lookup', { linkedin_url: 'https://linkedin.example/in/ada' });
    expect(meta.creditsCharged).toBe(2_000);
    expect((await settlementOf(meta.runId!)).charges).toEqual([
      expect.objectContaining({
        chargeId: `${meta.runId}:0:people_db_x.lookup`,
        amount: { millicredits: 2_000 },
        sessionId: 'ses_1',
      }),
    ]);
  });

  test('a per-hit miss is free and settles with no charge', async () => {
    answer = async () => ({ person: null });
    const { meta } = await call('lookup', { linkedin_url: 'https://linkedin.example/in/nobody' });
    expect(meta.creditsCharged).toBe(0);
    expect(meta.balance).toBe(50_000);
    expect(await settlementOf(meta.runId!)).toMatchObject({ final: true, charges: [] });
  });

  test('a per-call method charges its fee whatever the answer', async () => {
    answer = async () => ({});
    const { meta } = await call('validate_email', { email: 'a@b.example' });
    expect(meta.creditsCharged).toBe(50);
    expect((await settlementOf(meta.runId!)).charges).toHaveLength(1);
  });

  test('a free method holds nothing, runs nothing and charges nothing', async () => {
    answer = async () => ({ regions: ['EU'] });
    const { result, meta } = await call('regions', {});
    expect(result).toEqual({ regions: ['EU'] });
    expect(meta).toEqual({ creditsCharged: 0 });
    expect(reserves).toBe(0);
  });

  test('a request the vendor refuses is the client’s 400, charged nothing', async () => {
    answer = async () => {
      throw new ProviderFailure('rejected', 'people_db_x refused the request: unknown region "Atlantis"');
    };
    const error = (await call('lookup', { linkedin_url: 'x' }).catch((e: unknown) => e)) as RdeError;
    expect(error).toBeInstanceOf(RdeError);
    expect(error.httpStatus).toBe(400);
    expect(error.body).toMatchObject({
      error: 'provider_rejected',
      detail: expect.stringContaining('Atlantis'),
      credits_charged: 0,
    });
    expect(await settlementOf(error.body.run_id as string)).toMatchObject({ charges: [] });
  });
});
