/** One IndexedDB request as a promise. */
export function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

/**
 * A getter for one object store of a database of the extension's own, opened (and created) on first use, so nothing
 * happens at import. A failed open is tried again on the next use.
 */
export function objectStore(dbName: string, storeName: string, keyPath: string[]): (mode: IDBTransactionMode) => Promise<IDBObjectStore> {
  let db: Promise<IDBDatabase> | undefined;
  const open = (): Promise<IDBDatabase> =>
    (db ??= new Promise((resolve, reject) => {
      const req = indexedDB.open(dbName, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(storeName, { keyPath });
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => {
        db = undefined;
        reject(req.error ?? new Error('IndexedDB cannot be opened'));
      };
    }));
  return async (mode) => (await open()).transaction(storeName, mode).objectStore(storeName);
}
