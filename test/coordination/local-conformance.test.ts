/** The default, in-process coordinator passes the conformance suite. */
import { localCoordinator } from "../../src/transport/partner-state.ts";
import { partnerConformance } from "./conformance.ts";

partnerConformance("in the process (the default)", () => localCoordinator);
