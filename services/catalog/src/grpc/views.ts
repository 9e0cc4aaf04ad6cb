import { catalog } from '@rde/proto';
import { DATA_PROVIDER_KIND, WATERFALL_KIND, type ResolvedMethod } from '../domain/catalog';
import { payloadSchemaOf } from '../domain/parameters';
import { formatCredits, formatUsd } from '../domain/pricing';
import type {
  JobDeclaration,
  MethodDeclaration,
  ProviderDeclaration,
  WaterfallDeclaration,
} from '../providers/declaration';
import type { CallMeta } from '../app/tool-call-result';

/**
 * The proto views of the catalog, built once: declarations and prices do not change while the
 * process runs, so no read of the catalog formats a price or a schema again.
 */
export class CatalogViews {
  private readonly methods = new Map<MethodDeclaration, catalog.Method>();

  constructor(providers: readonly ProviderDeclaration[], centsPerCredit: number) {
    for (const provider of providers) {
      for (const method of provider.methods) this.methods.set(method, methodView(provider, method, centsPerCredit));
    }
  }

  /** The proto view of a tool with the given methods. */
  tool(provider: ProviderDeclaration, methods: readonly MethodDeclaration[]): catalog.Tool {
    return {
      name: provider.tool,
      kind: DATA_PROVIDER_KIND,
      module: provider.module,
      description: provider.description,
      methods: methods.map((method) => this.method(method)),
      chain: [],
    };
  }

  /** A waterfall as a tool: no methods of its own, its chain of provider methods. */
  waterfall(waterfall: WaterfallDeclaration): catalog.Tool {
    return {
      name: waterfall.tool,
      kind: WATERFALL_KIND,
      module: waterfall.module,
      description: waterfall.description,
      methods: [],
      chain: [...waterfall.chain],
    };
  }

  /** One step of a waterfall with what the walker needs to decide it: capabilities, cost, page size. */
  chainStep({ provider, method }: ResolvedMethod): catalog.ChainStep {
    const view = this.method(method);
    return {
      tool: provider.tool,
      method: method.name,
      module: provider.module,
      capabilitiesJson: view.capabilitiesJson,
      cost: view.cost,
      maxRows: method.rows?.maxCount ?? 0,
    };
  }

  method(method: MethodDeclaration): catalog.Method {
    const view = this.methods.get(method);
    if (!view) throw new Error(`method ${method.name} is not in the catalog`);
    return view;
  }
}

/** A method's contract: the vendor endpoint, its inputs, its cost and its JSON body schema. */
function methodView(provider: ProviderDeclaration, method: MethodDeclaration, centsPerCredit: number): catalog.Method {
  const { unit, millicredits, note } = method.cost;
  const parameters = Buffer.from(JSON.stringify(payloadSchemaOf(method)));
  return {
    name: method.name,
    description: method.description,
    http: method.http,
    path: method.path,
    inputs: method.parameters.map((p) => ({
      name: p.name,
      type: p.type,
      required: p.required === true,
      description: p.description,
    })),
    cost: {
      credits: formatCredits(millicredits),
      usd: formatUsd(millicredits, centsPerCredit),
      unit,
      note,
      amount: { millicredits },
    },
    // Only a method that sends the vendor one JSON body has a payload schema.
    payloadSchemaJson: method.http === 'POST' ? parameters : Buffer.alloc(0),
    parametersSchemaJson: parameters,
    access: method.access ?? '',
    acceptsVendorOptions: method.acceptsVendorOptions === true,
    capabilitiesJson: Buffer.from(JSON.stringify({ ...method.capabilities, ...(method.job && { job: method.job }) })),
    rate: provider.rate,
    job: typeof method.job === 'object' ? jobMessageOf(method.job) : undefined,
  };
}

/** A job declaration as its proto message (the same fields as `capabilities.job`). */
function jobMessageOf(job: JobDeclaration): catalog.JobDeclaration {
  return {
    poll: job.poll,
    idField: job.id_field,
    callbackParameter: job.callback_parameter,
    statePath: [...job.state_path],
    doneState: job.done_state,
    batch: job.batch && {
      maxSize: job.batch.max_size,
      itemsParameter: job.batch.items_parameter,
      correlationField: job.batch.correlation_field,
      resultsPath: [...job.batch.results_path],
    },
  };
}

const credits = (millicredits: number | undefined) => (millicredits === undefined ? undefined : { millicredits });

export function metaView(meta: CallMeta): catalog.Meta {
  return {
    creditsCharged: credits(meta.creditsCharged),
    balance: credits(meta.balance),
    reserved: credits(meta.reserved),
    runId: meta.runId ?? '',
    settled: meta.settled,
    datasetId: meta.datasetId ?? '',
    rowCount: meta.rowCount,
    wouldChargeCredits: credits(meta.wouldCharge),
    wouldChargeCreditsMax: credits(meta.wouldChargeMax),
    wouldCall: meta.wouldCall ?? '',
  };
}
