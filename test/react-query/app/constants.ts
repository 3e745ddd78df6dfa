/** What the app and the test both name (this module imports nothing: the test reads it in node). */

/** The partner the first-load scenario's IdToken names. */
export const FIRST_LOAD_PARTNER = "partner-id-c";

/** The wizard shapes, each on its own event. */
export const SHAPES = { next: "evt-2001", stale: "evt-2002", both: "evt-2003" } as const;
