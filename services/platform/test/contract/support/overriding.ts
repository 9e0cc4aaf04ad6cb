/** `target` with some members replaced: a fault injected into one call of a real adapter. */
export function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in overrides) return overrides[property as keyof T];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
