/**
 * A data provider declared as data, the way its public API documentation describes it: the tool
 * name it is sold under, its methods with their parameters, where each method's table-like rows
 * sit in the answer, and what each call costs. Adding a vendor is one declaration; every vendor
 * here speaks REST with JSON answers and a key header (`rest-json.ts`).
 */
export interface ProviderDeclaration {
  /** The tool name clients call, e.g. `people_db_a`. */
  readonly tool: string;
  /** Groups tools for the catalog filter, e.g. `people_search`, `email_finding`. */
  readonly module: string;
  readonly description: string;
  /**
   * Where the sandbox serves its imitation of this vendor, e.g. `/pplgraph`: the development default
   * base URL is the sandbox's address plus this path, unless `RDE_<credential>_BASE_URL` names the vendor.
   */
  readonly sandboxPath: string;
  readonly auth: ProviderAuth;
  /** The request rate the vendor publishes (its token bucket); unset: none published. */
  readonly rate?: VendorRate;
  readonly methods: readonly MethodDeclaration[];
}

/** Requests a vendor accepts: `perSecond` sustained, up to `burst` at once. */
export interface VendorRate {
  readonly perSecond: number;
  readonly burst: number;
}

/** How the vendor takes its API key: `<header>: [<scheme> ]<key>`. */
export interface ProviderAuth {
  readonly header: string;
  readonly scheme?: 'Bearer' | 'Token';
  /** Names the vendor's configuration: `RDE_<credential>_API_KEY` and `RDE_<credential>_BASE_URL`. */
  readonly credential: string;
  /** The development key the sandbox's imitation of this vendor accepts (listed by its `GET /_admin/vendors`). */
  readonly sandboxKey: string;
}

export type ParameterType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';

export interface ParameterDeclaration {
  readonly name: string;
  readonly type: ParameterType;
  readonly required?: boolean;
  readonly description: string;
  /** Further JSON Schema keywords for the value (items, enum, minimum, maximum…). */
  readonly schema?: Readonly<Record<string, unknown>>;
}

/** `call`: every call; `record`: every returned row; `hit`: a call that found something (a miss is free). */
export type CostUnit = 'call' | 'record' | 'hit';

export interface CostModel {
  readonly unit: CostUnit;
  /** Price of one unit, in millicredits. */
  readonly millicredits: number;
  readonly note: string;
}

/** Where a method's table-like rows sit in the vendor's answer and how many a call may return. */
export interface RowsDeclaration {
  /** Path of the row array in the answer, e.g. `['data', 'people']`. */
  readonly path: readonly string[];
  /** The parameter that asks for a number of rows, when the method has one. */
  readonly countParameter?: string;
  /** Rows returned when the count parameter is absent. */
  readonly defaultCount: number;
  /** The most rows one call can return. */
  readonly maxCount: number;
}

export interface MethodDeclaration {
  readonly name: string;
  readonly description: string;
  /**
   * The vendor endpoint this method calls, relative to the vendor's prefix. `:name` in the path
   * takes that parameter; the others go in the query string (GET) or the JSON body (POST).
   */
  readonly http: 'GET' | 'POST';
  readonly path: string;
  /** In declared order: positional `args` bind in this order. */
  readonly parameters: readonly ParameterDeclaration[];
  /** Groups of parameters of which at least one must be given (a look-up by domain or by company). */
  readonly oneOfRequired?: readonly (readonly string[])[];
  readonly cost: CostModel;
  /** Unrecognised payload keys pass through to the vendor instead of being refused. */
  readonly acceptsVendorOptions?: boolean;
  readonly rows?: RowsDeclaration;
  /** Per-hit methods: the answer field that is present, not empty and not false on a hit (a miss is free). */
  readonly hitPath?: readonly string[];
  /** The vendor answers 404 when it finds nobody: a miss, not a failure. */
  readonly missOn404?: boolean;
  /** Only on methods that read a provider account's balance or usage. */
  readonly access?: 'own_key_required' | 'unavailable';
  /**
   * What the vendor can express (search filters, batch size, async jobs), shown in the contract and
   * read by the waterfalls to decide every step from data, never from a vendor's name.
   */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /**
   * A method of an asynchronous vendor's jobs: the submit method declares the job's shape, the poll
   * method says `poll`. The enrichment waterfalls submit, poll and bill these jobs for the workspace
   * that owns them; the catalog does not sell them as single calls (a submit bills nothing by
   * itself, and a vendor's job ids are not scoped to a workspace).
   */
  readonly job?: JobDeclaration | 'poll';
  /** How a row of this method reads as a person, for callers that walk people across vendors. */
  readonly person?: PersonMapping;
}

/**
 * How an asynchronous vendor's job works, shown in its contract under `capabilities.job`: submit,
 * then poll by id (free) until the state says done, or wait for the vendor's callback.
 */
export interface JobDeclaration {
  /** The method that polls a job. */
  readonly poll: string;
  /** The job id's field in the submit answer, also the poll method's parameter. */
  readonly id_field: string;
  /** The submit parameter that takes the callback URL (called once, when the job is done). */
  readonly callback_parameter: string;
  /** Where the poll answer says the job's state, and the state of a finished job. */
  readonly state_path: readonly string[];
  readonly done_state: string;
  /** A batch vendor: many contacts per job, results matched by a correlation key. */
  readonly batch?: {
    readonly max_size: number;
    /** The submit parameter holding the contacts. */
    readonly items_parameter: string;
    /** The contact field carrying the caller's key, echoed on its result. */
    readonly correlation_field: string;
    /** Where the finished job's results sit in the poll answer. */
    readonly results_path: readonly string[];
  };
}

/** A path into a row, e.g. `['company', 'name']`. */
export type FieldPath = readonly string[];

/**
 * Where a person's fields sit in one vendor row. `titleLine` is for vendors whose rows are one
 * unstructured line (`Name - Title - Employer | LinkedIn`) and a snippet (`City, Region · …`).
 */
export interface PersonMapping {
  readonly name?: FieldPath;
  readonly title?: FieldPath;
  readonly company?: FieldPath;
  /** A domain or website URL of the employer. */
  readonly companyDomain?: FieldPath;
  readonly linkedinUrl?: FieldPath;
  readonly location?: FieldPath;
  readonly seniority?: FieldPath;
  readonly workHistory?: { readonly path: FieldPath; readonly company: FieldPath; readonly title: FieldPath };
  readonly titleLine?: { readonly path: FieldPath; readonly snippet: FieldPath };
}

/**
 * A waterfall sold as one tool: an ordered chain of provider methods. The waterfall service walks
 * it; the catalog only declares and lists it.
 */
export interface WaterfallDeclaration {
  readonly tool: string;
  readonly module: string;
  readonly description: string;
  /** `<tool>.<method>` of each step, in walking order. */
  readonly chain: readonly string[];
}
