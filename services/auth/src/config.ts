import { loadConfig } from '@rde/platform';
import { wellFormedKey } from './domain/inputs';

export function authConfig(variables: NodeJS.ProcessEnv) {
  return loadConfig(
    {
      /** The dev workspace owner's key; setting it also turns the dev workspace on outside all-in-one. */
      RDE_DEV_API_KEY: wellFormedKey.optional(),
    },
    variables,
  );
}
