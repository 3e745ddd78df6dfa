/**
 * A helper's refusals in its client's name (Section 7: a support report states the partner and the
 * environment). Its own module: the engine's setup work and the helpers use it, the code every
 * client loads up front does not.
 */
import { environmentOf, inClient } from "./client-context.ts";

/** What a helper is given: a client's configuration, and its partner once known. */
export interface HelperClient {
  readonly config: { readonly baseUrl: URL };
  readonly partnerId?: () => string | undefined;
}

/** `work`'s result; what it is refused with before sending is completed with the client's partner and environment. */
export async function refusedIn<T>(client: HelperClient, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw inClient(error, { partnerId: client.partnerId?.(), environment: environmentOf(client.config.baseUrl) });
  }
}
