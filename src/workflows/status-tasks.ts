/**
 * Section 8.5: "task polls ... retry only after a PUT". The task of
 * `/events/{eid}/client_campaign_status/task` belongs to the PUT that started it, so the client
 * remembers, per eid, that it has sent `PUT /events/{eid}/client_campaign_status` (the server
 * answered it, whatever the status); `waitForClientCampaignStatusTask` polls only such an eid.
 */
import type { CallHooks } from "../client-types.ts";

const STATUS_PATH = "/events/{eid}/client_campaign_status";

export class StatusTaskStarts {
  readonly #eids = new Set<string>();

  /** Whether this client has sent the status PUT for `eid`. */
  has(eid: string): boolean {
    // An id given as a number is the id its text is (call/read-once.ts: the PUT's is held as text).
    return this.#eids.has(typeof eid === "number" ? String(eid) : eid);
  }

  /** Learns the eids of the status PUTs that reached the server. */
  hooks(): CallHooks {
    return {
      after: ({ op, params }) => {
        const eid = params?.path?.eid;
        if (op.method === "PUT" && op.path === STATUS_PATH && typeof eid === "string") this.#eids.add(eid);
        return undefined;
      },
    };
  }
}
