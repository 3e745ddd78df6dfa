/** The default, in-process coordinator passes the conformance suite (issue 13, item 1). */
import { localCoordinator } from "../../src/transport/partner-state.ts";
import { partnerConformance } from "./conformance.ts";

partnerConformance("in the process (the default)", () => localCoordinator);
