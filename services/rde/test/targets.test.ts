import type { ServiceModule, ServiceName } from '@rde/platform';
import { isAllInOne, resolveTargets, TargetError } from '../src/targets';

// Made-up names (a cycle of 'a' and 'b') stand outside the registry's type on purpose.
const moduleNamed = (name: string, dependencies: string[] = []): ServiceModule => ({
  name: name as ServiceName,
  dependencies: dependencies as ServiceName[],
  config: {},
  start: async () => ({ address: name, stop: async () => undefined }),
});

const modules = [moduleNamed('gateway', ['auth', 'billing']), moduleNamed('auth'), moduleNamed('billing', ['auth'])];

describe('resolveTargets', () => {
  test('all runs every module, each after the modules it depends on', () => {
    expect(resolveTargets('all', modules).map((m) => m.name)).toEqual(['auth', 'billing', 'gateway']);
  });

  test('a list runs only those; dependencies outside the list are reached over the network', () => {
    expect(resolveTargets('gateway,billing', modules).map((m) => m.name)).toEqual(['billing', 'gateway']);
    expect(resolveTargets('gateway', modules).map((m) => m.name)).toEqual(['gateway']);
  });

  test('an unknown target is refused with the choices', () => {
    expect(() => resolveTargets('auth,nope', modules)).toThrow(TargetError);
    expect(() => resolveTargets('nope', modules)).toThrow(/choose all or any of: gateway, auth, billing/);
  });

  test('a dependency cycle is refused', () => {
    expect(() => resolveTargets('all', [moduleNamed('a', ['b']), moduleNamed('b', ['a'])])).toThrow(/cycle/);
  });
});

describe('isAllInOne', () => {
  const withSandbox = [...modules, moduleNamed('sandbox')];

  test('every module in one process is the all-in-one', () => {
    expect(isAllInOne(resolveTargets('all', withSandbox), withSandbox)).toBe(true);
  });

  test('the sandbox imitates remote vendors, so the all-in-one may leave it to another process', () => {
    expect(isAllInOne(resolveTargets('gateway,auth,billing', withSandbox), withSandbox)).toBe(true);
  });

  test("a process missing one of RDE's own modules is one part of a distributed deployment", () => {
    expect(isAllInOne(resolveTargets('gateway,auth,sandbox', withSandbox), withSandbox)).toBe(false);
  });
});
