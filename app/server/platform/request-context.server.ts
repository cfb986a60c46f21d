import { AsyncLocalStorage } from "node:async_hooks";

// What server.ts keeps for each request it handles, for everything the request awaits: its id (on
// every log line) and, in a request that changes nothing (GET, HEAD), answers its loaders share.
type Context = { requestId: string; shared: Map<string, Promise<unknown>> | null };

const storage = new AsyncLocalStorage<Context>();

/** Runs `fn` as the handling of one request; `readOnly` (GET, HEAD) lets its loaders share answers. */
export function withRequestContext<T>(requestId: string, readOnly: boolean, fn: () => T): T {
  return storage.run({ requestId, shared: readOnly ? new Map() : null }, fn);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * `fn()` once per request for `key` in a request that changes nothing: a page's loaders (root,
 * layout, route) each ask for the session's user, one query instead of three. In any other
 * request, and outside one, every call runs: an action may change what a later loader reads.
 */
export function oncePerRequest<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const shared = storage.getStore()?.shared;
  if (!shared) return fn();
  let answer = shared.get(key) as Promise<T> | undefined;
  if (!answer) shared.set(key, (answer = fn()));
  // A thrown Response (the pool's 503) is read by Remix once per loader that throws it: each caller
  // gets its own copy. The same object twice was a 500 "Body is unusable" under load.
  return answer.catch((error: unknown) => {
    throw error instanceof Response ? error.clone() : error;
  });
}
