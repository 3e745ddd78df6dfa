/**
 * The typed surface of raw calls: the generated `paths`, less what the client fills in itself —
 * the X-Preferred-Partner-Id header (always sent by the transport) and the `adplatform` path
 * parameter (optional when the client has `adPlatform`).
 */
import type { paths } from "../generated/schema.ts";

type PartnerHeader = "X-Preferred-Partner-Id";

type RelaxHeader<H> = [H] extends [never] ? never : [H] extends [undefined] ? H : Omit<NonNullable<H>, PartnerHeader>;
type RelaxPath<P> = [P] extends [never]
  ? never
  : P extends { adplatform: string }
    ? Omit<P, "adplatform"> & { adplatform?: string }
    : P;
type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

type RelaxParameters<P> = Omit<P, "header" | "path"> & {
  header?: RelaxHeader<P extends { header?: infer H } ? H : never>;
} & (P extends { path: infer Pa }
    ? [Pa] extends [never]
      ? { path?: never }
      : RequiredKeys<RelaxPath<Pa>> extends never
        ? { path?: RelaxPath<Pa> }
        : { path: RelaxPath<Pa> }
    : { path?: never });

type RelaxOperation<Op> = Op extends { parameters: infer P }
  ? Omit<Op, "parameters"> & { parameters: RelaxParameters<P> }
  : Op;

/** `paths` as raw calls through the client see them. */
export type ClientPaths = {
  [Path in keyof paths]: {
    [Method in keyof paths[Path]]: Method extends "parameters"
      ? paths[Path][Method]
      : RelaxOperation<paths[Path][Method]>;
  };
};

export type { components, operations, paths } from "../generated/schema.ts";
