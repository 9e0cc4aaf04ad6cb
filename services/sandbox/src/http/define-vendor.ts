import { sandboxPathOf, VENDOR_FACTS, type VendorId } from '@rde/platform';
import type { KnobDefaults } from '../domain/knobs';
import type { VendorDefinition } from './vendor-kit';
import type { VendorDescriptor } from './vendor-descriptor';

/** What the shared vendor table says about a vendor: left out of its definition, filled in by defineVendor. */
type SharedDescriptorFields = 'id' | 'name' | 'kind' | 'prefix' | 'auth';

export interface OwnVendorDefinition extends Omit<VendorDefinition, 'descriptor' | 'knobDefaults'> {
  readonly descriptor: Omit<VendorDescriptor, SharedDescriptorFields>;
  readonly knobDefaults: Omit<KnobDefaults, 'rateLimit'>;
}

/**
 * A vendor's definition: its identity, key header and published rate (the default rate-limit knob)
 * from the shared vendor table, the rest (endpoints, cost, behaviour) its own.
 */
export function defineVendor(id: VendorId, own: OwnVendorDefinition): VendorDefinition {
  const { name, kind, auth, rate } = VENDOR_FACTS[id];
  const { header, sandboxKey: key } = auth;
  return {
    ...own,
    descriptor: {
      id,
      name,
      kind,
      prefix: sandboxPathOf(id),
      auth: 'scheme' in auth ? { header, scheme: auth.scheme, key } : { header, key },
      ...own.descriptor,
    },
    knobDefaults: { ...own.knobDefaults, rateLimit: { per_second: rate.perSecond, burst: rate.burst } },
  };
}
