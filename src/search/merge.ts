import { canonicalUrl } from "./canonical.js";
import type { ProviderHit } from "./provider.js";

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
  rank: number;
  providers: string[];
}

/**
 * Reciprocal-rank fusion over the engines' lists, keyed by canonical URL: a page several engines agree on
 * collects a share from each and rises; within one engine, order is kept. k=10 keeps one engine's #1 from
 * outweighing broad agreement lower down.
 */
export function mergeRanked(
  lists: { provider: string; hits: ProviderHit[] }[],
  limit: number,
): SearchResult[] {
  const byKey = new Map<string, { hit: ProviderHit; providers: string[]; score: number; first: number }>();
  let order = 0;
  for (const { provider, hits } of lists) {
    hits.forEach((hit, i) => {
      const key = canonicalUrl(hit.url);
      const entry = byKey.get(key);
      const share = 1 / (10 + i);
      if (!entry) {
        byKey.set(key, { hit, providers: [provider], score: share, first: order++ });
      } else if (!entry.providers.includes(provider)) {
        entry.providers.push(provider);
        entry.score += share;
        if (!entry.hit.snippet && hit.snippet) entry.hit = { ...entry.hit, snippet: hit.snippet };
      }
    });
  }
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .slice(0, limit)
    .map((e, i) => ({
      title: e.hit.title,
      url: e.hit.url,
      snippet: e.hit.snippet,
      rank: i + 1,
      providers: e.providers,
    }));
}
