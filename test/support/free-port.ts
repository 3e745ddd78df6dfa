export { freePort } from "../../src/testing/prism.ts";
