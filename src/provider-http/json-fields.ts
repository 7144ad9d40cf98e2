import type { z } from "zod";
import { zod } from "../core/lazy-zod.js";

/**
 * Schemas for the fields of an API's JSON that websift reads, and only those. APIs send nulls and odd types
 * where their documentation promises strings, so a field of the wrong type reads as absent instead of refusing
 * the whole answer; what must be there (a results list) is required by the schema that uses these. They are
 * pieces of a provider's `lazySchema` builder, so each is made when that builder runs (zod loads then).
 */
export const maybe = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const maybeText = () => maybe(zod().z.string());

/** A field read as it comes (checked where it is used); zod requires an unknown-typed key unless it is optional. */
export const anyField = () => zod().z.unknown().optional();

/** A list whose entries that do not fit are left out (a null among the results), not the whole list refused. */
export const listOf = <T extends z.ZodType>(item: T) =>
  zod()
    .z.array(zod().z.unknown())
    .transform((items) =>
      items.flatMap((entry) => {
        const parsed = item.safeParse(entry);
        return parsed.success ? [parsed.data as z.output<T>] : [];
      }),
    );

/** Like `listOf`, but a missing or non-list value reads as an empty list. */
export const maybeListOf = <T extends z.ZodType>(item: T) =>
  listOf(item)
    .optional()
    .catch(undefined)
    .transform((items) => items ?? []);

/** A list whose entries that do not fit read as undefined, keeping each entry's place and the list's length. */
export const entriesOf = <T extends z.ZodType>(item: T) => zod().z.array(maybe(item));
