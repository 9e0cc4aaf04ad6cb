import {
  applyPatch,
  defaultKnobs,
  type KnobDefaults,
  type KnobEnvironment,
  type Knobs,
  type KnobsPatch,
} from '../domain/knobs';

/** The live knobs of every vendor, starting from each vendor's defaults. */
export class KnobBoard {
  private readonly defaults: ReadonlyMap<string, Knobs>;
  private current = new Map<string, Knobs>();

  constructor(defaults: ReadonlyMap<string, KnobDefaults>, environment: KnobEnvironment) {
    this.defaults = new Map([...defaults].map(([vendor, d]) => [vendor, defaultKnobs(d, environment)]));
    this.reset();
  }

  has(vendor: string): boolean {
    return this.current.has(vendor);
  }

  get(vendor: string): Knobs {
    return this.current.get(vendor)!;
  }

  all(): Record<string, Knobs> {
    return Object.fromEntries(this.current);
  }

  patch(vendor: string, patch: KnobsPatch): Knobs {
    const next = applyPatch(this.get(vendor), patch);
    this.current.set(vendor, next);
    return next;
  }

  reset(): void {
    this.current = new Map(this.defaults);
  }
}
