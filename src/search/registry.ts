import type { Provider } from "./provider.js";
import { bing } from "./providers/bing.js";
import { brave } from "./providers/brave.js";
import { braveWeb } from "./providers/brave-web.js";
import { duckduckgo } from "./providers/duckduckgo.js";
import { duckduckgoInstant } from "./providers/duckduckgo-instant.js";
import { exa } from "./providers/exa.js";
import { gemini } from "./providers/gemini.js";
import { geminiCli } from "./providers/gemini-cli.js";
import { mojeek } from "./providers/mojeek.js";
import { perplexity } from "./providers/perplexity.js";
import { searxng } from "./providers/searxng.js";
import { startpage } from "./providers/startpage.js";
import { tavily } from "./providers/tavily.js";
import { wikipedia } from "./providers/wikipedia.js";

/** Every provider websift knows; adding an engine is one file and one line here. */
export const PROVIDERS: readonly Provider[] = [
  searxng,
  duckduckgo,
  bing,
  mojeek,
  startpage,
  braveWeb,
  wikipedia,
  duckduckgoInstant,
  brave,
  tavily,
  exa,
  perplexity,
  gemini,
  geminiCli,
];
