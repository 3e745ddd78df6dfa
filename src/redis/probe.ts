/**
 * Asks a Redis that did not answer until it does: soon at first (a client still connecting at
 * start-up), then at doubling intervals up to `probeMs`.
 */
import type { RedisCommands } from "./commands.ts";

export function probeUntilAnswered(redis: RedisCommands, probeMs: number, answered: () => void): void {
  let delay = 50;
  const attempt = (): void => {
    const wait = delay;
    delay = Math.min(probeMs, delay * 2);
    const timer = setTimeout(() => {
      redis.send("PING").then(answered, attempt);
    }, wait);
    (timer as { unref?: () => void }).unref?.();
  };
  attempt();
}
