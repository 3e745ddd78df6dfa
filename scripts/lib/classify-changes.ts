/**
 * Classifies the differences between two merged descriptions (generated/openapi.json before and
 * after a regeneration) for a caller of this client: each change gets the operation it reaches, a
 * JSON pointer, a kind and a severity.
 *
 * - `breaking`: code that compiled against the previous types, or a request the server accepted,
 *   may stop working — an operation, parameter, response or field removed; a parameter or request
 *   field newly required; a type changed; a request enum or constraint narrowed; a response enum
 *   widened (an exhaustive `switch` no longer covers it); a JSON response no longer JSON; a path
 *   renamed.
 * - `additive`: callers keep compiling and working — a new operation, an optional parameter or
 *   field, a widened request enum, a required request field made optional, an extension (`x-`).
 * - `prose`: descriptions, summaries, titles, examples, tags, external docs.
 *
 * The direction matters: a field removed from a request body is harmless to a server but breaks a
 * typed caller whose object literal still names it (TypeScript's excess-property check), so this
 * judges from the caller's side, not the server's. Anything not recognised below is `breaking`, so
 * an unknown change stops for a person instead of slipping through as a minor release.
 *
 * The overlays' rule: this compares merged descriptions (vendor file + openapi/overlays), so a
 * vendor change that an overlay already patches over (the bearer security scheme, the
 * query-string operations) makes no difference here and is not reported.
 */
import { type Doc, deref, isObject, type Json, lookup } from "./json-ref.ts";

export type { Doc } from "./json-ref.ts";
export type Severity = "breaking" | "additive" | "prose";

export interface Change {
  /** `METHOD /path` in the description after the change (before, for a removed operation). */
  readonly operation: string;
  readonly operationId: string | undefined;
  /** RFC 6901 pointer, as a URI fragment, into the merged description after the change (before, for a removal). */
  readonly pointer: string;
  readonly kind: string;
  readonly severity: Severity;
  readonly detail: string;
}

/** One change as a reviewer reads it: a change in a shared component once, with every operation it reaches. */
export interface GroupedChange {
  readonly pointer: string;
  readonly kind: string;
  readonly severity: Severity;
  readonly detail: string;
  readonly operations: string[];
  /** True when the pointer is in `#/components` (a schema, parameter or response shared by reference). */
  readonly shared: boolean;
}

export interface Classification {
  readonly changes: Change[];
  readonly grouped: GroupedChange[];
  readonly operations: {
    readonly added: string[];
    readonly removed: string[];
    readonly changed: string[];
    readonly unchanged: number;
  };
}

type Dir = "request" | "response";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;
const PROSE = new Set(["description", "summary", "title", "example", "examples", "externalDocs", "tags", "$comment"]);
/** Schema keywords that restrict the values a schema accepts; tightening them narrows it. */
const LOWER = new Set(["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"]);
const UPPER = new Set(["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"]);
const EXACT = new Set(["pattern", "format", "multipleOf", "uniqueItems", "contentEncoding", "contentMediaType"]);
const SEVERITY_ORDER: Record<Severity, number> = { breaking: 0, additive: 1, prose: 2 };

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);
const escapePart = (part: string) => part.replaceAll("~", "~0").replaceAll("/", "~1");
const join = (ptr: string, ...parts: (string | number)[]) =>
  [ptr, ...parts.map((p) => escapePart(String(p)))].join("/");
const show = (value: Json | undefined): string => {
  if (value === undefined) return "(absent)";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
};
const isJsonMedia = (type: string) => /^application\/(.+\+)?json(;|$)/i.test(type);
const isSuccess = (status: string) => /^2(\d\d|XX)$/i.test(status);

/** A node where `$ref` has been followed (to any depth), with the pointer it was found at. */
interface At {
  readonly node: Json | undefined;
  readonly ptr: string;
  /** The `$ref`s followed so far on this branch (a recursive schema stops at the second visit). */
  readonly refs: readonly string[];
}

function follow(doc: Doc, at: At): At & { cycle?: string } {
  let { node, ptr, refs } = at;
  while (isObject(node) && typeof node.$ref === "string") {
    const ref: string = node.$ref;
    if (refs.includes(ref)) return { node, ptr, refs, cycle: ref };
    refs = [...refs, ref];
    ptr = ref;
    node = lookup(doc, ref);
  }
  return { node, ptr, refs };
}

function types(schema: { [key: string]: Json }): Set<string> | undefined {
  const raw = schema.type;
  const list = typeof raw === "string" ? [raw] : Array.isArray(raw) ? raw.map(String) : undefined;
  if (!list) return undefined;
  const set = new Set(list);
  if (set.has("number")) set.add("integer"); // every integer is a number
  if (schema.nullable === true) set.add("null");
  return set;
}
const subset = (a: Set<string>, b: Set<string>) => [...a].every((x) => b.has(x));
const enumOf = (schema: { [key: string]: Json }): Json[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const as Json] : undefined;

class Classifier {
  readonly changes: Change[] = [];
  private operation = "";
  private operationId: string | undefined;

  private readonly seen = [new WeakMap<object, string>(), new WeakMap<object, string>()] as const;

  constructor(
    private readonly before: Doc,
    private readonly after: Doc,
  ) {}

  /** Equal once every `$ref` inside is resolved: the same `$ref` may point at a changed schema. */
  private same(b: Json | undefined, a: Json | undefined): boolean {
    return this.text(0, b) === this.text(1, a);
  }

  private text(side: 0 | 1, node: Json | undefined): string {
    if (typeof node !== "object" || node === null) return String(JSON.stringify(node));
    const cache = this.seen[side];
    let text = cache.get(node);
    if (text === undefined) {
      text = JSON.stringify(deref(side === 0 ? this.before : this.after, node));
      cache.set(node, text);
    }
    return text;
  }

  private emit(pointer: string, kind: string, severity: Severity, detail: string): void {
    this.changes.push({ operation: this.operation, operationId: this.operationId, pointer, kind, severity, detail });
  }

  /** A change this classifier has no rule for: breaking, so that a person decides. */
  private other(pointer: string, key: string, b: Json | undefined, a: Json | undefined): void {
    if (key.startsWith("x-")) this.emit(pointer, "extension-changed", "additive", `${key}: ${show(b)} → ${show(a)}`);
    else if (PROSE.has(key)) this.emit(pointer, `${key}-changed`, "prose", `${key} reworded`);
    else if (key === "deprecated") this.emit(pointer, "deprecated", "additive", `deprecated: ${show(b)} → ${show(a)}`);
    else this.emit(pointer, "changed", "breaking", `${key}: ${show(b)} → ${show(a)} (no rule for this keyword)`);
  }

  operationAdded(key: string, op: { [key: string]: Json }, ptr: string): void {
    this.at(key, op);
    this.emit(ptr, "operation-added", "additive", `new operation ${key}`);
  }

  operationRemoved(key: string, op: { [key: string]: Json }, ptr: string): void {
    this.at(key, op);
    this.emit(ptr, "operation-removed", "breaking", `operation ${key} removed`);
  }

  operationRenamed(key: string, was: string, op: { [key: string]: Json }, ptr: string): void {
    this.at(key, op);
    this.emit(ptr, "path-renamed", "breaking", `${was} is now ${key}`);
  }

  private at(key: string, op: { [key: string]: Json }): void {
    this.operation = key;
    this.operationId = typeof op.operationId === "string" ? op.operationId : undefined;
  }

  /** One operation present on both sides; `params*` are the path-level and own parameters, merged. */
  operationChanged(
    key: string,
    b: { op: { [key: string]: Json }; ptr: string; params: Map<string, At> },
    a: { op: { [key: string]: Json }; ptr: string; params: Map<string, At> },
  ): void {
    this.at(key, a.op);
    for (const k of new Set([...Object.keys(b.op), ...Object.keys(a.op)])) {
      const bv = b.op[k];
      const av = a.op[k];
      if (k === "parameters" || this.same(bv, av)) continue;
      const ptr = join(av === undefined ? b.ptr : a.ptr, k);
      if (k === "requestBody")
        this.requestBody({ node: bv, ptr: join(b.ptr, k), refs: [] }, { node: av, ptr, refs: [] });
      else if (k === "responses") this.responses(join(b.ptr, k), bv, ptr, av);
      else if (k === "operationId") this.emit(ptr, "operation-id-changed", "breaking", `${show(bv)} → ${show(av)}`);
      else this.other(ptr, k, bv, av);
    }
    this.parameters(b.params, a.params);
  }

  private parameters(before: Map<string, At>, after: Map<string, At>): void {
    for (const [name, was] of before) {
      if (after.has(name)) continue;
      this.emit(was.ptr, "parameter-removed", "breaking", `parameter ${name} removed`);
    }
    for (const [name, now] of after) {
      const was = before.get(name);
      const p = follow(this.after, now);
      const required = isObject(p.node) && p.node.required === true;
      if (!was) {
        if (required) this.emit(p.ptr, "required-parameter-added", "breaking", `new required parameter ${name}`);
        else this.emit(p.ptr, "optional-parameter-added", "additive", `new optional parameter ${name}`);
        continue;
      }
      const q = follow(this.before, was);
      if (!isObject(q.node) || !isObject(p.node) || this.same(q.node, p.node)) continue;
      const bp = q.node;
      const ap = p.node;
      for (const k of new Set([...Object.keys(bp), ...Object.keys(ap)])) {
        if (this.same(bp[k], ap[k])) continue;
        const ptr = join(p.ptr, k);
        if (k === "required") {
          if (ap.required === true) this.emit(ptr, "parameter-made-required", "breaking", `${name} is now required`);
          else this.emit(ptr, "parameter-made-optional", "additive", `${name} is now optional`);
        } else if (k === "schema") {
          this.schema(
            { node: bp[k], ptr: join(q.ptr, k), refs: q.refs },
            { node: ap[k], ptr, refs: p.refs },
            "request",
          );
        } else if (k === "content") {
          this.content(join(q.ptr, k), bp[k], ptr, ap[k], "request");
        } else if (["style", "explode", "allowReserved", "allowEmptyValue"].includes(k)) {
          this.emit(
            ptr,
            "parameter-serialization-changed",
            "breaking",
            `${name} ${k}: ${show(bp[k])} → ${show(ap[k])}`,
          );
        } else this.other(ptr, k, bp[k], ap[k]);
      }
    }
  }

  private requestBody(before: At, after: At): void {
    const q = follow(this.before, before);
    const p = follow(this.after, after);
    if (!isObject(q.node) && isObject(p.node)) {
      if (p.node.required === true)
        this.emit(p.ptr, "required-request-body-added", "breaking", "a request body is now required");
      else this.emit(p.ptr, "optional-request-body-added", "additive", "an optional request body");
      return;
    }
    if (isObject(q.node) && !isObject(p.node)) {
      this.emit(q.ptr, "request-body-removed", "breaking", "the request body was removed");
      return;
    }
    if (!isObject(q.node) || !isObject(p.node)) return;
    for (const k of new Set([...Object.keys(q.node), ...Object.keys(p.node)])) {
      const bv = q.node[k];
      const av = p.node[k];
      if (this.same(bv, av)) continue;
      const ptr = join(p.ptr, k);
      if (k === "required") {
        if (av === true) this.emit(ptr, "request-body-made-required", "breaking", "the request body is now required");
        else this.emit(ptr, "request-body-made-optional", "additive", "the request body is now optional");
      } else if (k === "content") this.content(join(q.ptr, k), bv, ptr, av, "request");
      else this.other(ptr, k, bv, av);
    }
  }

  private content(bptr: string, before: Json | undefined, aptr: string, after: Json | undefined, dir: Dir): void {
    const b = isObject(before) ? before : {};
    const a = isObject(after) ? after : {};
    const jsonAfter = Object.keys(a).some(isJsonMedia);
    for (const type of Object.keys(b)) {
      if (type in a) continue;
      if (dir === "response" && isJsonMedia(type) && !jsonAfter) {
        const now = Object.keys(a).join(", ") || "no content";
        this.emit(join(bptr, type), "response-no-longer-json", "breaking", `${type} response is now ${now}`);
      } else this.emit(join(bptr, type), "media-type-removed", "breaking", `${dir} media type ${type} removed`);
    }
    for (const type of Object.keys(a)) {
      const was = b[type];
      const now = a[type];
      if (was === undefined) {
        // A response gaining its first JSON body changes `data` from nothing to that type.
        const kind = dir === "response" && Object.keys(b).length === 0 ? "breaking" : "additive";
        this.emit(join(aptr, type), "media-type-added", kind, `${dir} media type ${type} added`);
        continue;
      }
      if (!isObject(was) || !isObject(now)) continue;
      for (const k of new Set([...Object.keys(was), ...Object.keys(now)])) {
        if (this.same(was[k], now[k])) continue;
        const ptr = join(aptr, type, k);
        if (k === "schema")
          this.schema({ node: was[k], ptr: join(bptr, type, k), refs: [] }, { node: now[k], ptr, refs: [] }, dir);
        else this.other(ptr, k, was[k], now[k]);
      }
    }
  }

  private responses(bptr: string, before: Json | undefined, aptr: string, after: Json | undefined): void {
    const b = isObject(before) ? before : {};
    const a = isObject(after) ? after : {};
    const successSchemas = (side: Doc, map: { [key: string]: Json }) =>
      Object.entries(map)
        .filter(([status]) => isSuccess(status))
        .map(([, r]) => JSON.stringify(follow(side, { node: r, ptr: "", refs: [] }).node));
    const before2xx = new Set(successSchemas(this.before, b));
    for (const status of Object.keys(b)) {
      if (status in a) continue;
      if (isSuccess(status))
        this.emit(join(bptr, status), "response-removed", "breaking", `response ${status} removed`);
      else this.emit(join(bptr, status), "error-response-removed", "additive", `error response ${status} removed`);
    }
    for (const status of Object.keys(a)) {
      const ptr = join(aptr, status);
      if (!(status in b)) {
        const body = JSON.stringify(follow(this.after, { node: a[status], ptr, refs: [] }).node);
        // `data` is the union of the success bodies: a new 2xx with a body of its own widens it.
        if (isSuccess(status) && before2xx.size > 0 && !before2xx.has(body))
          this.emit(ptr, "success-response-added", "breaking", `response ${status} added with a different body`);
        else this.emit(ptr, "response-added", "additive", `response ${status} added`);
        continue;
      }
      const q = follow(this.before, { node: b[status], ptr: join(bptr, status), refs: [] });
      const p = follow(this.after, { node: a[status], ptr, refs: [] });
      if (!isObject(q.node) || !isObject(p.node) || this.same(q.node, p.node)) continue;
      for (const k of new Set([...Object.keys(q.node), ...Object.keys(p.node)])) {
        const bv = q.node[k];
        const av = p.node[k];
        if (this.same(bv, av)) continue;
        if (k === "content") this.content(join(q.ptr, k), bv, join(p.ptr, k), av, "response");
        else if (k === "headers") this.headers(join(q.ptr, k), bv, join(p.ptr, k), av);
        else if (k === "links") this.emit(join(p.ptr, k), "links-changed", "additive", "response links changed");
        else this.other(join(p.ptr, k), k, bv, av);
      }
    }
  }

  private headers(bptr: string, before: Json | undefined, aptr: string, after: Json | undefined): void {
    const b = isObject(before) ? before : {};
    const a = isObject(after) ? after : {};
    for (const name of Object.keys(b))
      if (!(name in a))
        this.emit(join(bptr, name), "response-header-removed", "breaking", `response header ${name} removed`);
    for (const name of Object.keys(a)) {
      if (!(name in b)) {
        this.emit(join(aptr, name), "response-header-added", "additive", `response header ${name} added`);
        continue;
      }
      const q = follow(this.before, { node: b[name], ptr: join(bptr, name), refs: [] });
      const p = follow(this.after, { node: a[name], ptr: join(aptr, name), refs: [] });
      if (!isObject(q.node) || !isObject(p.node) || this.same(q.node, p.node)) continue;
      for (const k of new Set([...Object.keys(q.node), ...Object.keys(p.node)])) {
        if (this.same(q.node[k], p.node[k])) continue;
        if (k === "schema")
          this.schema(
            { node: q.node[k], ptr: join(q.ptr, k), refs: q.refs },
            { node: p.node[k], ptr: join(p.ptr, k), refs: p.refs },
            "response",
          );
        else if (k === "required" && p.node[k] !== true)
          this.emit(
            join(p.ptr, k),
            "response-header-made-optional",
            "breaking",
            `response header ${name} may be absent`,
          );
        else this.other(join(p.ptr, k), k, q.node[k], p.node[k]);
      }
    }
  }

  /** Compares two schemas in the direction data flows: a request schema may widen, a response schema may narrow. */
  private schema(before: At, after: At, dir: Dir): void {
    const q = follow(this.before, before);
    const p = follow(this.after, after);
    if (q.cycle || p.cycle) {
      if (q.cycle !== p.cycle) this.emit(p.ptr, "type-changed", "breaking", `${show(q.node)} → ${show(p.node)}`);
      return;
    }
    const b = q.node;
    const a = p.node;
    if (this.same(b, a)) return;
    if (a === undefined) {
      this.emit(q.ptr, "schema-removed", "breaking", "schema removed");
      return;
    }
    if (b === undefined) {
      this.emit(p.ptr, "schema-added", dir === "request" ? "breaking" : "additive", "schema added");
      return;
    }
    if (!isObject(b) || !isObject(a)) {
      this.emit(p.ptr, "type-changed", "breaking", `${show(b)} → ${show(a)}`);
      return;
    }
    const sub = (key: string, ...rest: (string | number)[]) => ({
      b: { node: lookupIn(b, key, rest), ptr: join(q.ptr, key, ...rest), refs: q.refs },
      a: { node: lookupIn(a, key, rest), ptr: join(p.ptr, key, ...rest), refs: p.refs },
    });

    const tb = types(b);
    const ta = types(a);
    if (tb && ta && !(subset(tb, ta) && subset(ta, tb))) {
      const widened = subset(tb, ta);
      const narrowed = subset(ta, tb);
      const detail = `type ${[...tb].join("|")} → ${[...ta].join("|")}`;
      if (dir === "request" && widened) this.emit(join(p.ptr, "type"), "request-type-widened", "additive", detail);
      else if (dir === "response" && narrowed)
        this.emit(join(p.ptr, "type"), "response-type-narrowed", "additive", detail);
      else {
        // A different kind of value: what it contained before no longer applies, field by field.
        this.emit(join(p.ptr, "type"), "type-changed", "breaking", detail);
        return;
      }
    } else if (!tb !== !ta) {
      this.emit(
        join(p.ptr, "type"),
        "type-changed",
        tb ? (dir === "request" ? "additive" : "breaking") : dir === "request" ? "breaking" : "additive",
        `type ${show(b.type)} → ${show(a.type)}`,
      );
    }

    const eb = enumOf(b);
    const ea = enumOf(a);
    if (JSON.stringify(eb) !== JSON.stringify(ea)) {
      const ptr = join(p.ptr, "enum" in a || "enum" in b ? "enum" : "const");
      const removed = eb ? eb.filter((v) => !ea?.some((w) => same(v, w))) : [];
      const added = ea ? ea.filter((v) => !eb?.some((w) => same(v, w))) : [];
      const narrowed = (eb === undefined && ea !== undefined) || removed.length > 0;
      const widened = (ea === undefined && eb !== undefined) || added.length > 0;
      const detail =
        `enum ${removed.length ? `−${show(removed)} ` : ""}${added.length ? `+${show(added)}` : ""}`.trim();
      if (dir === "request") {
        if (narrowed) this.emit(ptr, "request-enum-narrowed", "breaking", detail || "enum constrained");
        else if (widened) this.emit(ptr, "request-enum-widened", "additive", detail);
      } else if (widened) this.emit(ptr, "response-enum-widened", "breaking", detail || "enum lifted");
      else if (narrowed) this.emit(ptr, "response-enum-narrowed", "additive", detail);
    }

    this.properties(q, p, b, a, dir);

    for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
      if (this.same(b[k], a[k])) continue;
      if (["type", "nullable", "enum", "const", "properties", "required"].includes(k)) continue;
      if (k === "items" || k === "additionalProperties" || k === "not" || k === "contains") {
        if (isObject(b[k]) && isObject(a[k])) {
          const s = sub(k);
          this.schema(s.b, s.a, dir);
        } else if (k === "additionalProperties") {
          // Lifting a closed object (false) accepts more: fine for a request, new keys for a response.
          const opened = b[k] === false || (b[k] === undefined && a[k] !== false);
          const kind = opened === (dir === "request") ? "additive" : "breaking";
          this.emit(join(p.ptr, k), "additional-properties-changed", kind, `${show(b[k])} → ${show(a[k])}`);
        } else this.emit(join(p.ptr, k), "type-changed", "breaking", `${k}: ${show(b[k])} → ${show(a[k])}`);
      } else if (k === "oneOf" || k === "anyOf" || k === "allOf" || k === "prefixItems") {
        const lb = Array.isArray(b[k]) ? b[k] : [];
        const la = Array.isArray(a[k]) ? a[k] : [];
        for (let i = 0; i < Math.min(lb.length, la.length); i += 1) {
          const s = sub(k, i);
          this.schema(s.b, s.a, dir);
        }
        if (lb.length !== la.length) {
          // More alternatives accept more (a request may widen); more allOf members constrain more.
          const accepts = k === "allOf" ? la.length < lb.length : la.length > lb.length;
          const kind = accepts === (dir === "request") ? "additive" : "breaking";
          this.emit(join(p.ptr, k), `${k}-changed`, kind, `${k}: ${lb.length} → ${la.length} members`);
        }
      } else if (LOWER.has(k) || UPPER.has(k) || EXACT.has(k)) {
        const bv = b[k];
        const av = a[k];
        const tighter =
          av !== undefined &&
          (bv === undefined ||
            EXACT.has(k) ||
            (LOWER.has(k) && Number(av) > Number(bv)) ||
            (UPPER.has(k) && Number(av) < Number(bv)));
        const detail = `${k}: ${show(bv)} → ${show(av)}`;
        if (dir === "response") this.emit(join(p.ptr, k), "response-constraint-changed", "additive", detail);
        else if (tighter) this.emit(join(p.ptr, k), "request-constraint-tightened", "breaking", detail);
        else this.emit(join(p.ptr, k), "request-constraint-loosened", "additive", detail);
      } else if (k === "default") {
        this.emit(join(p.ptr, k), "default-changed", "additive", `default: ${show(b[k])} → ${show(a[k])}`);
      } else this.other(join(p.ptr, k), k, b[k], a[k]);
    }
  }

  private properties(q: At, p: At, b: { [key: string]: Json }, a: { [key: string]: Json }, dir: Dir): void {
    const pb = isObject(b.properties) ? b.properties : {};
    const pa = isObject(a.properties) ? a.properties : {};
    const rb = new Set(Array.isArray(b.required) ? b.required.map(String) : []);
    const ra = new Set(Array.isArray(a.required) ? a.required.map(String) : []);
    for (const name of new Set([...Object.keys(pb), ...Object.keys(pa), ...rb, ...ra])) {
      const bptr = join(q.ptr, "properties", name);
      const aptr = join(p.ptr, "properties", name);
      const inB = name in pb;
      const inA = name in pa;
      if (inB && !inA) {
        this.emit(bptr, "field-removed", "breaking", `${dir} field ${name} removed`);
        continue;
      }
      if (!inB && inA) {
        if (dir === "request" && ra.has(name))
          this.emit(aptr, "required-field-added", "breaking", `new required request field ${name}`);
        else
          this.emit(
            aptr,
            "field-added",
            "additive",
            `new ${ra.has(name) || dir === "request" ? "" : "optional "}${dir} field ${name}`,
          );
        continue;
      }
      if (rb.has(name) !== ra.has(name)) {
        const nowRequired = ra.has(name);
        const ptr = join(p.ptr, "required");
        if (dir === "request") {
          if (nowRequired) this.emit(ptr, "field-made-required", "breaking", `request field ${name} is now required`);
          else this.emit(ptr, "field-made-optional", "additive", `request field ${name} is now optional`);
        } else if (nowRequired)
          this.emit(ptr, "field-made-required", "additive", `response field ${name} is now always present`);
        else this.emit(ptr, "field-made-optional", "breaking", `response field ${name} may now be absent`);
      }
      if (inA && inB)
        this.schema({ node: pb[name], ptr: bptr, refs: q.refs }, { node: pa[name], ptr: aptr, refs: p.refs }, dir);
    }
  }
}

function lookupIn(node: { [key: string]: Json }, key: string, rest: (string | number)[]): Json | undefined {
  let value: Json | undefined = node[key];
  for (const part of rest)
    value = Array.isArray(value) ? value[Number(part)] : isObject(value) ? value[String(part)] : undefined;
  return value;
}

interface OperationAt {
  readonly key: string;
  readonly path: string;
  readonly method: string;
  readonly op: { [key: string]: Json };
  readonly ptr: string;
  readonly params: Map<string, At>;
}

function operationsOf(doc: Doc): Map<string, OperationAt> {
  const result = new Map<string, OperationAt>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [path, raw] of Object.entries(paths)) {
    const item = follow(doc, { node: raw, ptr: join("#/paths", path), refs: [] });
    if (!isObject(item.node)) continue;
    const shared = Array.isArray(item.node.parameters) ? item.node.parameters : [];
    for (const method of METHODS) {
      const op = item.node[method];
      if (!isObject(op)) continue;
      const ptr = join(item.ptr, method);
      const params = new Map<string, At>();
      const add = (list: Json[], base: string) => {
        list.forEach((node, i) => {
          const p = follow(doc, { node, ptr: join(base, "parameters", i), refs: [] });
          if (isObject(p.node))
            params.set(`${String(p.node.in)}:${String(p.node.name)}`, {
              node,
              ptr: join(base, "parameters", i),
              refs: [],
            });
        });
      };
      add(shared, item.ptr);
      add(Array.isArray(op.parameters) ? op.parameters : [], ptr);
      const key = `${method.toUpperCase()} ${path}`;
      result.set(key, { key, path, method, op, ptr, params });
    }
  }
  return result;
}

/** `/events/{eid}` and `/events/{id}` are one path to a caller who spells the template out. */
const template = (op: OperationAt) => `${op.method} ${op.path.replace(/\{[^}]*\}/g, "{}")}`;

export function classifyChanges(before: Doc, after: Doc): Classification {
  const old = operationsOf(before);
  const next = operationsOf(after);
  const c = new Classifier(before, after);
  const added = [...next.values()].filter((op) => !old.has(op.key));
  const removed = [...old.values()].filter((op) => !next.has(op.key));
  const renamed = new Set<string>();
  // A removed and an added operation with one operationId, or one path template, are one operation renamed.
  for (const now of added) {
    const was = removed.find(
      (op) =>
        !renamed.has(op.key) &&
        ((op.op.operationId !== undefined && op.op.operationId === now.op.operationId) ||
          template(op) === template(now)),
    );
    if (!was) continue;
    renamed.add(was.key).add(now.key);
    c.operationRenamed(now.key, was.key, now.op, now.ptr);
    c.operationChanged(now.key, was, now);
  }
  for (const op of added) if (!renamed.has(op.key)) c.operationAdded(op.key, op.op, op.ptr);
  for (const op of removed) if (!renamed.has(op.key)) c.operationRemoved(op.key, op.op, op.ptr);
  let unchanged = 0;
  for (const [key, now] of next) {
    const was = old.get(key);
    if (!was) continue;
    const count = c.changes.length;
    c.operationChanged(key, was, now);
    if (c.changes.length === count) unchanged += 1;
  }
  const changes = c.changes.sort(
    (x, y) =>
      SEVERITY_ORDER[x.severity] - SEVERITY_ORDER[y.severity] ||
      x.operation.localeCompare(y.operation) ||
      x.pointer.localeCompare(y.pointer),
  );
  const touched = new Set(changes.map((ch) => ch.operation));
  return {
    changes,
    grouped: group(changes),
    operations: {
      added: added.filter((op) => !renamed.has(op.key)).map((op) => op.key),
      removed: removed.filter((op) => !renamed.has(op.key)).map((op) => op.key),
      changed: [...touched]
        .filter((k) => old.has(k) || renamed.has(k))
        .filter((k) => next.has(k))
        .sort(),
      unchanged,
    },
  };
}

/** The same change reached through several operations (a shared component) becomes one entry. */
function group(changes: Change[]): GroupedChange[] {
  const byKey = new Map<string, GroupedChange>();
  for (const ch of changes) {
    const key = `${ch.pointer}\u0000${ch.kind}\u0000${ch.severity}\u0000${ch.detail}`;
    const entry = byKey.get(key);
    if (entry) {
      if (!entry.operations.includes(ch.operation)) entry.operations.push(ch.operation);
    } else {
      const { pointer, kind, severity, detail } = ch;
      byKey.set(key, {
        pointer,
        kind,
        severity,
        detail,
        operations: [ch.operation],
        shared: pointer.startsWith("#/components/"),
      });
    }
  }
  return [...byKey.values()];
}
