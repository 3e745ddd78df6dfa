/**
 * Seeded description changes: each a small edit of the vendor file, as the vendor might publish
 * it, with the answer a caller of this client needs. Used in-process by vendor-corpus.test.ts
 * (every one classified) and end to end by vendor-update.test.ts (one through the real command).
 */

// biome-ignore lint/suspicious/noExplicitAny: edits reach into an untyped YAML document
type Vendor = any;

export interface Seed {
  readonly name: string;
  readonly edit: (doc: Vendor) => void;
}

const schemas = (doc: Vendor) => doc.components.schemas;
const listEvents = (doc: Vendor) => doc.paths["/events/"].get;

/** Each of these breaks a caller: the bump must be `major`, with at least one `breaking` change. */
export const BREAKING: Seed[] = [
  { name: "an operation removed", edit: (d) => delete d.paths["/status/"] },
  {
    name: "a response field removed (Event.id)",
    edit: (d) => {
      delete schemas(d).Event.properties.id;
      schemas(d).Event.required = [];
    },
  },
  {
    name: "a required query parameter added",
    edit: (d) =>
      listEvents(d).parameters.push({ name: "sort", in: "query", required: true, schema: { type: "string" } }),
  },
  {
    name: "an optional parameter made required (descending)",
    edit: (d) => {
      listEvents(d).parameters[2].required = true;
    },
  },
  {
    name: "a parameter's type changed (descending: boolean → string)",
    edit: (d) => {
      listEvents(d).parameters[2].schema = { type: "string" };
    },
  },
  {
    name: "a request enum narrowed (Goal loses LINK_CLICKS)",
    edit: (d) => {
      schemas(d).Goal.enum = ["UTILIZATION", "ROAS", "VISIBILITY"];
    },
  },
  {
    name: "a required request body field added (SignInRequest.otp)",
    edit: (d) => {
      schemas(d).SignInRequest.properties.otp = { type: "string" };
      schemas(d).SignInRequest.required.push("otp");
    },
  },
  {
    name: "an optional request field made required (SetupPayload.goal)",
    edit: (d) => {
      schemas(d).SetupPayload.required = ["goal"];
    },
  },
  {
    name: "a JSON response no longer JSON (GET /profile/ → text/plain)",
    edit: (d) => {
      d.paths["/profile/"].get.responses["200"].content = { "text/plain": { schema: { type: "string" } } };
    },
  },
  {
    name: "a path renamed, operationId kept (/events/{eid}/tickets → /events/{eid}/ticket_rows)",
    edit: (d) => {
      d.paths["/events/{eid}/ticket_rows"] = d.paths["/events/{eid}/tickets"];
      delete d.paths["/events/{eid}/tickets"];
    },
  },
  {
    name: "a response field's type changed (Event.id: string → integer)",
    edit: (d) => {
      schemas(d).Event.properties.id = { type: "integer" };
    },
  },
  {
    name: "a response field made optional (SignInResponse.AccessToken)",
    edit: (d) => {
      schemas(d).SignInResponse.required = ["IdToken", "RefreshToken"];
    },
  },
  {
    name: "a response enum widened (FrontendStatus gains ARCHIVED)",
    edit: (d) => {
      schemas(d).FrontendStatus.enum.push("ARCHIVED");
    },
  },
  {
    name: "a request body removed (POST /auth/refresh_token)",
    edit: (d) => {
      delete d.paths["/auth/refresh_token"].post.requestBody;
    },
  },
  {
    name: "a success response removed (GET /partners/ 200 → 204)",
    edit: (d) => {
      delete d.paths["/partners/"].get.responses["200"];
      d.paths["/partners/"].get.responses["204"] = { description: "No content" };
    },
  },
  {
    name: "a request media type replaced (POST /ingest/transaction_summary: JSON → form)",
    edit: (d) => {
      const body = d.paths["/ingest/transaction_summary"].post.requestBody;
      body.content = { "application/x-www-form-urlencoded": body.content["application/json"] };
    },
  },
  {
    name: "a request body field removed (TransactionSummary.tickets)",
    edit: (d) => {
      delete schemas(d).TransactionSummary.properties.tickets;
      schemas(d).TransactionSummary.required = ["eid", "from", "to"];
    },
  },
  {
    name: "a request constraint tightened (SignInRequest.username maxLength 64)",
    edit: (d) => {
      schemas(d).SignInRequest.properties.username.maxLength = 64;
    },
  },
  {
    name: "a parameter removed (descending)",
    edit: (d) => {
      listEvents(d).parameters.splice(2, 1);
    },
  },
  {
    name: "a parameter's serialization changed (descending: style deepObject)",
    edit: (d) => {
      listEvents(d).parameters[2].style = "deepObject";
    },
  },
  {
    name: "an operationId renamed (listEvents → listAllEvents)",
    edit: (d) => {
      listEvents(d).operationId = "listAllEvents";
    },
  },
  {
    name: "a parameter moved from query to header (descending)",
    edit: (d) => {
      listEvents(d).parameters[2].in = "header";
    },
  },
  {
    name: "a request field's type changed (SetupPayload.tc_run_id: integer → string)",
    edit: (d) => {
      schemas(d).SetupPayload.properties.tc_run_id = { type: "string" };
    },
  },
  {
    name: "a second success response with another body (POST /auth 202)",
    edit: (d) => {
      d.paths["/auth"].post.responses["202"] = {
        description: "Challenge",
        content: { "application/json": { schema: { type: "object", properties: { challenge: { type: "string" } } } } },
      };
    },
  },
  {
    name: "a response header removed (x-request-id on GET /events/)",
    edit: (d) => {
      delete listEvents(d).responses["200"].headers;
    },
  },
  {
    name: "an array's items changed (EventList.items: Event → string)",
    edit: (d) => {
      schemas(d).EventList.properties.items.items = { type: "string" };
    },
  },
  {
    name: "a path parameter renamed ({eid} → {event_id} on /events/{eid}/tickets)",
    edit: (d) => {
      const op = d.paths["/events/{eid}/tickets"].get;
      op.parameters[0] = { name: "event_id", in: "path", required: true, schema: { type: "string" } };
      d.paths["/events/{event_id}/tickets"] = d.paths["/events/{eid}/tickets"];
      delete d.paths["/events/{eid}/tickets"];
    },
  },
  {
    name: "a response field made nullable (TotalUnread.total_unread)",
    edit: (d) => {
      schemas(d).TotalUnread.properties.total_unread.type = ["integer", "null"];
    },
  },
];

/** None of these breaks a caller: the bump must not be `major`, and no change `breaking`. */
export const HARMLESS: Seed[] = [
  {
    name: "an operation's summary reworded",
    edit: (d) => {
      listEvents(d).summary = "List the partner's events, page by page";
    },
  },
  {
    name: "a schema description reworded",
    edit: (d) => {
      schemas(d).Event.description = "An event; fields beyond id are not documented.";
    },
  },
  {
    name: "a new operation",
    edit: (d) => {
      d.paths["/events/{eid}/notes"] = {
        get: {
          operationId: "listEventNotes",
          parameters: [{ $ref: "#/components/parameters/Eid" }, { $ref: "#/components/parameters/PartnerId" }],
          responses: {
            "200": {
              description: "OK",
              content: { "application/json": { schema: { type: "array", items: { type: "string" } } } },
            },
          },
        },
      };
    },
  },
  {
    name: "an optional query parameter added",
    edit: (d) =>
      listEvents(d).parameters.push({ name: "sort", in: "query", schema: { type: "string", enum: ["date", "name"] } }),
  },
  {
    name: "an optional response field added (Event.venue)",
    edit: (d) => {
      schemas(d).Event.properties.venue = { type: "string" };
    },
  },
  {
    name: "a request enum widened (Goal gains REACH)",
    edit: (d) => {
      schemas(d).Goal.enum.push("REACH");
    },
  },
  {
    name: "a required request field made optional (TransactionSummary.to)",
    edit: (d) => {
      schemas(d).TransactionSummary.required = ["eid", "from", "tickets"];
    },
  },
  {
    name: "an example added to a schema",
    edit: (d) => {
      schemas(d).TicketRow.example = { type: "standard", sold: 10, revenue: 250 };
    },
  },
  {
    name: "an error response added (GET /events/ 404)",
    edit: (d) => {
      listEvents(d).responses["404"] = { $ref: "#/components/responses/NotFound" };
    },
  },
  {
    name: "tags changed",
    edit: (d) => {
      listEvents(d).tags = ["events", "listing"];
    },
  },
  {
    name: "a response field now always present (RefreshResponse.AccessToken)",
    edit: (d) => {
      schemas(d).RefreshResponse.required = ["AccessToken"];
    },
  },
  {
    name: "an operation deprecated",
    edit: (d) => {
      d.paths["/status/"].get.deprecated = true;
    },
  },
  {
    name: "a vendor extension added",
    edit: (d) => {
      listEvents(d)["x-vendor-cache"] = "60s";
    },
  },
  {
    name: "info.version moved, nothing else",
    edit: (d) => {
      d.info.version = "3.0.1";
    },
  },
  {
    name: "a request field's type widened (SetupPayload.tc_run_id: integer → number)",
    edit: (d) => {
      schemas(d).SetupPayload.properties.tc_run_id = { type: "number" };
    },
  },
];
