export { freePort } from "../../scripts/lib/prism.ts";
