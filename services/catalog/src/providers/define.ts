import { sandboxPathOf, VENDOR_FACTS, type VendorFacts, type VendorId } from '@rde/platform';
import type { ProviderDeclaration } from './declaration';

/**
 * A provider's declaration: its tool name, module, sandbox path, key header and published rate from
 * the shared vendor table (what the sandbox imitates), its description and methods its own.
 */
export function defineProvider(
  id: VendorId,
  own: Pick<ProviderDeclaration, 'description' | 'methods'>,
): ProviderDeclaration {
  const { kind, auth, rate }: VendorFacts = VENDOR_FACTS[id];
  const { header, scheme, sandboxKey } = auth;
  return {
    tool: id,
    module: kind,
    description: own.description,
    sandboxPath: sandboxPathOf(id),
    auth: { header, ...(scheme && { scheme }), credential: id, sandboxKey },
    rate,
    methods: own.methods,
  };
}
