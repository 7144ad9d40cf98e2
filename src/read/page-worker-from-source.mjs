// The page pool's worker when websift runs from its TypeScript sources (vitest, tsx): a worker thread does not
// inherit its parent's module hooks, so tsx (a development dependency) is registered here before the worker loads.
import { register } from "tsx/esm/api";

register();
export const { document, extract, feed, pdf, size, stackExchangePage, wikipediaArticle, goPackage } =
  await import("./page-worker.ts");
