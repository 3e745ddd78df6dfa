/**
 * The few shapes of the Workers runtime this entry uses, declared structurally so that its types
 * need no `@cloudflare/workers-types`: a `DurableObjectNamespace` binding, and the state a Durable
 * Object's constructor receives, fit them as they are.
 */

/** An id of one Durable Object (opaque here). */
export type DurableObjectIdLike = object;

/** A stub of one Durable Object: requests to it reach the one instance of that object. */
export interface DurableObjectStubLike {
  /** Sends a request to the object (its `fetch` handler answers). */
  fetch(input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<Response>;
}

/** A Durable Object namespace binding (`env.AUDIENCE_COORDINATOR`), as `durableObjectCoordinator` uses it. */
export interface DurableObjectNamespaceLike {
  /** The id of the object named `name` (the same name gives the same object, everywhere). */
  idFromName(name: string): DurableObjectIdLike;
  /** A stub of the object with `id`. */
  get(id: never): DurableObjectStubLike;
}

/** The object's durable storage, as `AudienceCoordinator` uses it (the key-value API of every Durable Object). */
export interface DurableObjectStorageLike {
  /** The value stored under `key`, undefined when none. */
  get(key: string): Promise<unknown>;
  /** Stores `value` under `key`. */
  put(key: string, value: unknown): Promise<void>;
}

/** What the runtime passes a Durable Object's constructor, as `AudienceCoordinator` uses it. */
export interface DurableObjectStateLike {
  /** The object's own storage: it keeps the shared session there (tokens and fence survive a restart). */
  readonly storage: DurableObjectStorageLike;
}
