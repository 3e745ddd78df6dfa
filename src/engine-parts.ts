/**
 * The parts an engine is built of, each made once per client: the server's clock (token expiry
 * and HTTP-date Retry-After are judged in the server's time), the redactor and the redacted
 * logger, the metrics and drift watch when their options are given, the transport and the session,
 * which need each other (the session signs in through the transport; the transport stamps the
 * session's token).
 */
import type { SessionShare } from "./coordination/coordinator.ts";
import { type DriftObserver, lazyDrift } from "./drift/lazy-drift.ts";
import { clientRedactor } from "./internal/client-redactor.ts";
import { observedLogger, warnOf } from "./internal/observed-logger.ts";
import { createOperationMatcher, operationOf } from "./internal/operation-index.ts";
import type { Redactor } from "./internal/redact.ts";
import { ServerClock } from "./internal/server-clock.ts";
import type { ClientConfig, Logger } from "./options.ts";
import { Session } from "./session/session.ts";
import { createTransport, type Transport, type TransportDeps } from "./transport/create-transport.ts";
import { lazyMetrics } from "./transport/lazy-metrics.ts";

/** Test seams of the parts (engine.ts's InternalSeams adds the engine's own). Not public API. */
export interface PartSeams {
  /** Randomness and sleep of the retry policy. */
  retryHooks?: TransportDeps["retryHooks"];
  /** The draws of `onDrift`'s sampling (default Math.random). */
  driftRandom?: () => number;
}

export interface EngineParts {
  readonly redactor: Redactor;
  readonly logger: Logger;
  readonly drift: DriftObserver | undefined;
  readonly transport: Transport;
  readonly session: Session;
}

export function createParts(config: ClientConfig, seams: PartSeams, share: SessionShare | undefined): EngineParts {
  const clock = new ServerClock();
  const redactor = clientRedactor(config.timeoutMs, clock);
  const logger = observedLogger(config.logger, redactor);
  const warn = warnOf(logger);
  const metrics = config.meter ? lazyMetrics(config.meter, config.baseUrl, warn) : undefined;
  const drift = config.onDrift
    ? lazyDrift(
        {
          onDrift: config.onDrift,
          sampleRate: config.driftSampleRate,
          redactor,
          ...(seams.driftRandom ? { random: seams.driftRandom } : {}),
          warn,
        },
        warn,
      )
    : undefined;
  let session: Session | undefined;
  const transport = createTransport({
    config,
    redactor,
    logger,
    match: createOperationMatcher({ main: config.baseUrl, media: config.mediaUrl }),
    session: () => session as Session,
    clock,
    metrics,
    onUnparsed: drift && ((op, response) => drift.observe(op, response, undefined, false)),
    ...(seams.retryHooks ? { retryHooks: seams.retryHooks } : {}),
  });
  session = new Session({
    config,
    redactor,
    logger,
    send: (request) => transport.send(request),
    share,
    now: () => clock.now(),
    serverTimeKnown: () => clock.known,
    ...(metrics ? { observe: metrics.sessionEvent } : {}),
    ...(drift
      ? {
          inspect: (path: string, response: Response, body: unknown) => {
            const op = operationOf("POST", path);
            if (op) drift.observe(op, response, body, true);
          },
        }
      : {}),
  });
  return { redactor, logger, drift, transport, session };
}
