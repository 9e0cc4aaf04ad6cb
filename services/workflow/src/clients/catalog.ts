import { createClient, RdeError, type AddressBook, type Caller } from '@rde/platform';
import { catalog } from '@rde/proto';

/** The catalog's methods as step inputs: lint checks a `<tool>.<method>` step's `with` against them. */
export interface MethodSchemas {
  /** The method's payload JSON Schema, or undefined when the catalog has no such method. */
  schemaOf(tool: string, method: string, caller: Caller): Promise<Record<string, unknown> | undefined>;
  close(): void;
}

export function catalogMethods(addresses: AddressBook, deadlineMs: number): MethodSchemas {
  const client = createClient(catalog.CatalogServiceService, { address: addresses.get('catalog'), deadlineMs });
  return {
    async schemaOf(tool, method, caller) {
      try {
        const found = await client.rpc.getMethod({ tool, method }, { caller });
        return JSON.parse(Buffer.from(found.method!.parametersSchemaJson).toString('utf8')) as Record<string, unknown>;
      } catch (error) {
        if (error instanceof RdeError && error.httpStatus === 404) return undefined;
        throw error;
      }
    },
    close: () => client.close(),
  };
}
