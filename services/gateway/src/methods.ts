import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';
import { PATH_PARAM_MAX_LENGTH } from './contract';

/** Finds which methods a path answers, for the 405 of a known path asked with another method. */
export type AllowedMethods = (url: string) => string[];

/**
 * Records every route's path and methods in a router of its own (fastify's is not queryable by
 * concrete URL), so a request that matched no route can still be told the path exists.
 */
export function trackRouteMethods(app: FastifyInstance): AllowedMethods {
  const paths = FindMyWay<FindMyWay.HTTPVersion.V1>({ maxParamLength: PATH_PARAM_MAX_LENGTH });
  const methodsOf = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    let methods = methodsOf.get(route.url);
    if (!methods) {
      methods = new Set();
      methodsOf.set(route.url, methods);
      paths.on('GET', route.url, () => undefined, { methods });
    }
    for (const method of [route.method].flat()) methods.add(method);
  });
  return (url) => {
    const found = paths.find('GET', url.split('?')[0]);
    return found ? [...(found.store as { methods: Set<string> }).methods].sort() : [];
  };
}
