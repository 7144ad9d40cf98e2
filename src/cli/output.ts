/**
 * What a command prints on stdout. Coding agents shell out to `websift search` and `websift fetch` and hand
 * stdout to their model, so anything but a terminal gets the model view (fenced, redacted, with its status and
 * instruction lines), as MCP clients do; a person at a terminal gets plain text. Every mode is redacted.
 *
 * - `model`: the model view's text (the default when stdout is not a terminal)
 * - `plain`: plain text or markdown (the default on a terminal, or `--raw`)
 * - `json`: the model view's compact object (`--json`)
 * - `json-raw`: the library's whole shape (`--json --raw`)
 */
export type OutputMode = "model" | "plain" | "json" | "json-raw";

export function outputMode(
  opts: { json?: boolean; raw?: boolean },
  terminal = process.stdout.isTTY === true,
): OutputMode {
  if (opts.json) return opts.raw ? "json-raw" : "json";
  return opts.raw || terminal ? "plain" : "model";
}

export const RAW_HELP =
  "plain text, unfenced (secrets still redacted); with --json, the library's whole shape";
