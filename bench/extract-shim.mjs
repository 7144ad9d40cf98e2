// Adapter for ../shared/tools/extract-eval: scores the markdown prose of websift's built extractor.
import { extractMarkdown } from "../dist/read/extract/index.js";

export async function extract(html, url) {
  return (await extractMarkdown(html, url)).markdown;
}
