/**
 * The types the sandbox writes its JSON in, taken from `@paykit/core`'s response schemas so that a serializer
 * that drifts from what the clients read fails to compile. A value of `Wire<S>` is JSON that schema `S` reads
 * (its input) and that is already in the form `S` reads it as (its output): a record's `amount` is a number,
 * not a numeric string; a payment request's `amount` is the two-decimal string; a currency is a string.
 * Core's response schemas are loose, so fields they do not name pass as `unknown`.
 */
import type { OPERATION_PAYLOADS, OperationId } from '@paykit/core';
import type * as z from 'zod';

/** JSON that `S` reads, in the form it reads it as. */
export type Wire<S extends z.ZodType> = z.input<S> & z.output<S>;

/** The 2xx answer of operation `K` (one resource; a list's answer is a page), from core's operation table. */
export type WireOf<K extends OperationId> = Wire<(typeof OPERATION_PAYLOADS)[K]['response']>;

/** `T` without its `id` (and an `id` that may be given): what a serializer returns before the store names it. */
export type WithoutId<T> = { [P in keyof T as P extends 'id' ? never : P]: T[P] } & { id?: string };
