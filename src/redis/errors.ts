/** The Redis coordinator's two failures of a command, in one place. */

/** Redis did not serve the command: a timeout, a lost connection, a refusal. Its message never quotes a server's text. */
export class RedisUnavailable extends Error {
  override name = "RedisUnavailable";
}

/**
 * A server's error reply that came over the REST protocol (`{"error": "NOSCRIPT …"}`), named as
 * node-redis names its own so commands.ts tells it apart as it does theirs.
 */
export class RestErrorReply extends Error {
  override name = "ErrorReply";
}
