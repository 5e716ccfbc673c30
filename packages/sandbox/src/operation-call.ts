/**
 * What the sandbox writes for each operation of `@paykit/core`'s table: one handler per row. The table gives the
 * method, the paths, the body's schema, the filters and the list's shape; a handler only finds, changes and answers.
 * {@link OperationHandlers} names every operation, so a missing or an extra handler does not compile.
 */
import type { OperationFilters, OperationId, operations } from '@paykit/core';
import type { Context } from 'hono';
import type * as z from 'zod';
import type { Caller } from './auth.js';
import type { ReadBodyOptions } from './body.js';
import type { SandboxEnv } from './env.js';
import type { BodyOperationId, OperationBody } from './operation-body.js';

/** The path parameters of a template: `/v1/payment-requests/{id}` has `{ id: string }`. */
type ParamsOf<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { readonly [N in Name]: string } & ParamsOf<Rest>
  : unknown;

/** The filters of operation `K` as its `query` schema yields them. */
type FiltersOutput<K extends OperationId> = (typeof operations)[K] extends { query: infer Q extends z.ZodType }
  ? z.output<Q>
  : OperationFilters<K>;

/** One call of operation `K`, as its handler gets it. */
export interface OperationCall<K extends OperationId> {
  /** Hono's context, for answers with another status (`c.json(x, 201)`, `c.body(null, 204)`). */
  readonly c: Context<SandboxEnv>;
  /** Who called (the `/v1` middleware authenticated and authorized them). */
  readonly caller: Caller;
  /** The business the call acts on: the caller's. */
  readonly businessId: string;
  /** The row's path parameters. */
  readonly params: ParamsOf<(typeof operations)[K]['path']>;
  /**
   * The body, read and checked with the row's request schema (undocumented fields left out and named in
   * `X-Sandbox-Warning`). Read when the handler asks, so that it may first find what the call changes: an unknown
   * id is 404 whatever the body holds.
   */
  readonly body: K extends BodyOperationId ? (options?: ReadBodyOptions) => Promise<OperationBody<K>> : never;
  /** The list's filters, checked with the row's `query` schema (422 naming the bad one). */
  readonly filters: () => FiltersOutput<K>;
}

/** The items of a list whose records are not their own JSON: each with its cursor key and its answer. */
export class ListItems {
  /** Each item's key (what a cursor names) and how it answers. */
  readonly entries: readonly { readonly key: string; readonly json: () => unknown }[];

  constructor(entries: ListItems['entries']) {
    this.entries = entries;
  }

  /** `items` in list order, each named by `keyOf` and answered as `toJson` writes it. */
  static of<T>(items: readonly T[], keyOf: (item: T) => string, toJson: (item: T) => unknown): ListItems {
    return new ListItems(items.map((item) => ({ key: keyOf(item), json: () => toJson(item) })));
  }
}

/**
 * What a handler answers: for a list, its items in list order (records that are their own JSON, or
 * {@link ListItems}), which the mount pages as the row says; otherwise the JSON of a 200, or a `Response`.
 */
type Answer<K extends OperationId> = (typeof operations)[K]['pagination'] extends 'none'
  ? unknown
  : readonly { readonly id: string }[] | ListItems;

/** The handler of operation `K`. */
export type OperationHandler<K extends OperationId> = (call: OperationCall<K>) => Answer<K> | Promise<Answer<K>>;

/** The handlers of the operations whose ids start with one of `Groups` (`'charges'`: `charges.list`, `charges.get`). */
export type HandlersOf<Groups extends string> = {
  readonly [K in OperationId as K extends `${Groups}.${string}` ? K : never]: OperationHandler<K>;
};

/** A handler for every operation of the table, and for nothing else. */
export type OperationHandlers = { readonly [K in OperationId]: OperationHandler<K> };
