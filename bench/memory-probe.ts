/**
 * The memory probe, run in a fresh `node --expose-gc` process by bench/memory.ts so that nothing
 * the other benchmarks left behind (or frees late) moves its heap figures. argv[2]: the fast
 * mount's base URL. Replies over IPC with the heap figures in bytes.
 */
import { createAudienceClient, listEvents } from "../src/index.ts";
import { TOTAL_EVENTS } from "./scenario.ts";
import { credentials } from "./support.ts";

export interface MemoryFigures {
  readonly count: number;
  readonly seconds: number;
  /** Heap growth after GC: the largest of the samples taken every 10 000 events, and after the loop. */
  readonly peak: number;
  readonly after: number;
  /** The same events held in an array. */
  readonly collected: number;
}

async function heapAfterGc(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("the memory probe needs node --expose-gc");
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve)); // let finalizers run
  }
  return process.memoryUsage().heapUsed;
}

async function probe(base: string): Promise<MemoryFigures> {
  const client = createAudienceClient({ baseUrl: base, credentials });
  for await (const _ of listEvents(client, { limit: 100, maxItems: 300 })) void _; // sign in, warm up

  const baseline = await heapAfterGc();
  let peak = Number.NEGATIVE_INFINITY;
  let count = 0;
  const started = performance.now();
  for await (const event of listEvents(client, { limit: 100 })) {
    if (!event.id) throw new Error("event without id");
    count += 1;
    if (count % 10_000 === 0) peak = Math.max(peak, (await heapAfterGc()) - baseline);
  }
  const seconds = (performance.now() - started) / 1000;
  const after = (await heapAfterGc()) - baseline;

  const before = await heapAfterGc();
  const all: unknown[] = [];
  for await (const event of listEvents(client, { limit: 100 })) all.push(event);
  const collected = (await heapAfterGc()) - before;
  if (all.length !== TOTAL_EVENTS) throw new Error(`collected ${all.length} events`);
  return { count, seconds, peak: Math.max(peak, after), after, collected };
}

const base = process.argv[2];
if (!base) throw new Error("usage: memory-probe.ts <base url>");
process.send?.(await probe(base));
process.disconnect?.();
