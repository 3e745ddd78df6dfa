/**
 * The peers of the benchmark, resolved from this folder's own node_modules (bench/peers.ts and
 * bench/cpu-probe.ts import this file by URL; the root package does not depend on them).
 */
export { default as axios } from "axios";
export { default as ky } from "ky";
export { ofetch } from "ofetch";
export { default as OpenAI } from "openai";
