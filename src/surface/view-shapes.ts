import { z } from "zod";

/**
 * The tools' outputSchemas, which every view of `ground/model-view.ts` fits (a pending one and an error
 * included, since the MCP client checks each result against its tool's schema). They are handed to the MCP SDK,
 * so they stand here, with the surfaces, built from the zod the SDK imports; the views themselves need no zod.
 * Compact on purpose: clients send them with every model turn.
 */
const base = {
  status: z.string().describe("ok, partial, empty, pending or a failure"),
  text: z.string().describe("Read this: fenced web text, next steps"),
  id: z.string().optional().describe("For web_result"),
};
// Plain numbers: an integer schema spells out its safe range, which costs tokens on every turn.
const searchFields = {
  provider: z.string().optional(),
  count: z.number().optional(),
  cached: z.boolean().optional(),
};
const fetchFields = {
  source: z.string().optional(),
  reader: z.string().optional(),
  truncated: z.boolean().optional(),
  totalChars: z.number().optional(),
  nextOffset: z.number().optional(),
  cached: z.boolean().optional(),
};

export const VIEW_SHAPES = {
  search: { ...base, ...searchFields },
  fetch: { ...base, ...fetchFields },
  answer: { ...base, provider: z.string().optional() },
  /** web_result hands over any of the three. */
  result: { ...base, ...searchFields, ...fetchFields },
};
