const TRACKING = /^(utm_[a-z]+|fbclid|gclid|dclid|msclkid|mc_[a-z]+|ref_src|_ga|yclid|igshid)$/i;

/**
 * The key two results share when they are the same page: engines differ on `www.`, trailing slashes, tracking
 * parameters and text fragments (`#:~:text=`), none of which changes the document.
 */
export function canonicalUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.trim();
  }
  url.hash = "";
  const host = url.hostname.toLowerCase().replace(/^www\./, "");
  const params = [...url.searchParams.entries()].filter(([k]) => !TRACKING.test(k));
  params.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = params.length ? `?${new URLSearchParams(params).toString()}` : "";
  const path = url.pathname.replace(/\/+$/, "") || "";
  const port = url.port ? `:${url.port}` : "";
  return `${host}${port}${path}${query}`;
}
