/**
 * What the admin API can change per vendor at run time. The shape is the admin API's wire shape
 * (snake_case), so it is validated and stored as sent.
 */
export interface LatencyDistribution {
  readonly median: number;
  readonly p95: number;
}

export interface Knobs {
  /** Added before every answer. */
  readonly latency_ms: LatencyDistribution;
  /** How long an async or batch job takes to complete. */
  readonly job_duration_ms: LatencyDistribution;
  /** Probabilities per request, each in [0, 1]. */
  readonly faults: { readonly timeout: number; readonly server_error: number; readonly malformed: number };
  /** How long a request hit by a timeout fault hangs before the vendor gives up with a 504. */
  readonly timeout_hang_ms: number;
  /** Scales the vendor's hit rate (the share of the universe it knows), capped at 1. */
  readonly hit_rate_multiplier: number;
  /** Token bucket; null = unlimited. */
  readonly rate_limit: { readonly per_second: number; readonly burst: number } | null;
}

export type KnobsPatch = {
  readonly [K in keyof Knobs]?: Knobs[K] extends { readonly [key: string]: number } ? Partial<Knobs[K]> : Knobs[K];
};

export interface KnobDefaults {
  readonly latency: LatencyDistribution;
  readonly jobDuration?: LatencyDistribution;
  readonly rateLimit: { readonly per_second: number; readonly burst: number };
}

export interface KnobEnvironment {
  /** Multiplies every default latency and job duration; 0 answers at once. */
  readonly latencyScale: number;
  readonly rateLimits: boolean;
}

const NO_FAULTS = { timeout: 0, server_error: 0, malformed: 0 };

export function defaultKnobs(defaults: KnobDefaults, environment: KnobEnvironment): Knobs {
  const scale = (d: LatencyDistribution) => ({
    median: Math.round(d.median * environment.latencyScale),
    p95: Math.round(d.p95 * environment.latencyScale),
  });
  return {
    latency_ms: scale(defaults.latency),
    job_duration_ms: scale(defaults.jobDuration ?? { median: 1500, p95: 4000 }),
    faults: NO_FAULTS,
    timeout_hang_ms: 30_000,
    hit_rate_multiplier: 1,
    rate_limit: environment.rateLimits ? defaults.rateLimit : null,
  };
}

export function applyPatch(knobs: Knobs, patch: KnobsPatch): Knobs {
  return {
    latency_ms: { ...knobs.latency_ms, ...patch.latency_ms },
    job_duration_ms: { ...knobs.job_duration_ms, ...patch.job_duration_ms },
    faults: { ...knobs.faults, ...patch.faults },
    timeout_hang_ms: patch.timeout_hang_ms ?? knobs.timeout_hang_ms,
    hit_rate_multiplier: patch.hit_rate_multiplier ?? knobs.hit_rate_multiplier,
    rate_limit: patch.rate_limit === undefined ? knobs.rate_limit : patch.rate_limit,
  };
}

/**
 * A log-normal draw with the given median and 95th percentile: most answers are near the median,
 * a few are slow, as with real vendors. `gaussian` is a standard normal draw.
 */
export function sampleLatency(distribution: LatencyDistribution, gaussian: number): number {
  if (distribution.median <= 0) return 0;
  const sigma = Math.log(Math.max(distribution.p95, distribution.median) / distribution.median) / 1.645;
  return distribution.median * Math.exp(sigma * gaussian);
}

/** A standard normal draw (Box–Muller). */
export function gaussian(random: () => number = Math.random): number {
  return Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
