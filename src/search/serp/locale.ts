import type { ProviderQuery } from "../provider.js";

// DDG region codes are country-language and use "uk" where ISO 3166 says "GB".
const COUNTRY_FIXES: Record<string, string> = { uk: "GB" };

/** A DDG-style region ("de-de", "uk-en") as country and language; undefined for "wt-wt" or anything malformed. */
export function parseRegion(region: string | undefined): { country: string; language: string } | undefined {
  const m = /^([a-z]{2})-([a-z]{2})$/.exec(region?.toLowerCase() ?? "");
  if (!m || m[1] === "wt") return undefined;
  return { country: COUNTRY_FIXES[m[1]] ?? m[1].toUpperCase(), language: m[2] };
}

/** BCP 47 locale for Accept-Language and market parameters ("en-GB"), from the region, else the language. */
export function localeOf(query: ProviderQuery): string | undefined {
  const region = parseRegion(query.region);
  const language = query.language?.toLowerCase();
  if (region) return `${language ?? region.language}-${region.country}`;
  return language && /^[a-z]{2}$/.test(language) ? language : undefined;
}
