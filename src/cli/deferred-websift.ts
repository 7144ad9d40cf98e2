import type { ToolWebsift } from "../surface/tools.js";
import type { Websift } from "../websift.js";

/**
 * The library while it loads. `websift mcp` on stdio answers initialize and lists its tools while the engines,
 * the reader and net load (about half of its start-up: a client that starts every server at launch waits for
 * none of it), and each call waits for the library before it runs.
 */
export function deferredWebsift(loading: Promise<Websift>): ToolWebsift & Pick<Websift, "close"> {
  return {
    search: async (...args) => (await loading).search(...args),
    read: async (...args) => (await loading).read(...args),
    answer: async (...args) => (await loading).answer(...args),
    research: async (...args) => (await loading).research(...args),
    close: async () => (await loading).close(),
  };
}
