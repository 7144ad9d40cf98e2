export const CHROME_USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

/** The token a robots.txt group names websift by (RFC 9309 §2.2.1: letters, "_" and "-" only). */
export const PRODUCT_TOKEN = "websift";

/** Where websift speaks as itself (its robots.txt requests): the product token first, then where to learn more. */
export const OWN_USER_AGENT = `${PRODUCT_TOKEN}/0.1 (+https://www.npmjs.com/package/websift)`;

/**
 * The headers of one hop: a browser's manners (user agent, Accept, Accept-Language for the caller's locale,
 * the codings we undo), then the caller's own, names lower-cased. Accept-Language values are kept per locale.
 */
export function hopHeadersFor(userAgent: string) {
  const acceptLanguages = new Map<string, string>();
  /**
   * A new object for every hop: undici's ProxyAgent writes `host` into the headers object it is handed, so one
   * object shared across calls carried the first host's name into every later tunnel.
   */
  return function hopHeaders(
    locale: string | undefined,
    caller: Record<string, string>,
  ): Record<string, string> {
    const key = locale ?? "";
    let language = acceptLanguages.get(key);
    if (language === undefined) {
      language = acceptLanguage(locale);
      if (acceptLanguages.size < 100) acceptLanguages.set(key, language);
    }
    const headers: Record<string, string> = {
      "user-agent": userAgent,
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
      "accept-language": language,
      "accept-encoding": "gzip, deflate, br",
    };
    for (const k in caller) headers[k.toLowerCase()] = caller[k];
    return headers;
  };
}

export function acceptLanguage(locale: string | undefined): string {
  if (!locale) return "en-US,en;q=0.9";
  const tag = locale.replace("_", "-");
  const lang = tag.split("-")[0];
  return tag === lang ? `${lang},en;q=0.8` : `${tag},${lang};q=0.9,en;q=0.8`;
}
