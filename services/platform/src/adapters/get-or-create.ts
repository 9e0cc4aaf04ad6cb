/** The value cached under `key`, created on first use: one adapter instance per database, namespace or client. */
export function getOrCreate<V>(cache: Map<string, V>, key: string, create: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = create();
    cache.set(key, value);
  }
  return value;
}

/** getOrCreate for what opens asynchronously: a failed attempt is forgotten, so the next caller tries again. */
export function getOrOpen<V>(cache: Map<string, Promise<V>>, key: string, open: () => Promise<V>): Promise<V> {
  return getOrCreate(cache, key, () => {
    const opened = open();
    opened.catch(() => cache.delete(key));
    return opened;
  });
}
