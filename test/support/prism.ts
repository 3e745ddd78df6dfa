export { startPrism, type PrismProcess } from "../../scripts/lib/prism.ts";
