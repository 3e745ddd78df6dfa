/**
 * One request to a named `AudienceCoordinator` object through the worker's namespace binding, with
 * a deadline: whatever goes wrong on the way (the binding throws, the object is being reset or
 * restarted, an answer that is not JSON, none in time) is an ObjectUnavailable, named by its kind
 * only (an error's text may quote anything).
 */
import { ObjectUnavailable } from "./protocol.ts";
import { cancel } from "./timers.ts";
import type { DurableObjectIdLike, DurableObjectNamespaceLike } from "./types.ts";

/** The address requests to the object carry (the object reads only their body). */
const URL_OF_OBJECT = "https://audience-coordinator.invalid/";

export class ObjectLink {
  readonly #namespace: DurableObjectNamespaceLike;
  /** The object's name (idFromName). */
  readonly name: string;
  #id: DurableObjectIdLike | undefined;

  constructor(namespace: DurableObjectNamespaceLike, name: string) {
    this.#namespace = namespace;
    this.name = name;
  }

  /** Sends `ask`; resolves with the parsed reply, rejects with ObjectUnavailable. */
  send(ask: unknown, timeoutMs: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new ObjectUnavailable(`no answer from the coordinator object within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.#exchange(ask).then(
        (reply) => {
          cancel(timer);
          resolve(reply);
        },
        (error: unknown) => {
          cancel(timer);
          reject(
            error instanceof ObjectUnavailable
              ? error
              : new ObjectUnavailable(`the coordinator object failed: ${kindOf(error)}`),
          );
        },
      );
    });
  }

  async #exchange(ask: unknown): Promise<unknown> {
    // A stub belongs to the request that made it (Workers I/O): one per exchange; the id is a value.
    this.#id ??= this.#namespace.idFromName(this.name);
    const stub = this.#namespace.get(this.#id as never);
    const response = await stub.fetch(URL_OF_OBJECT, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ask),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new ObjectUnavailable(`the coordinator object answered ${response.status}`);
    }
    return response.json();
  }
}

function kindOf(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
