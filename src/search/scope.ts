/** Domains `scope: "code"` keeps (and their subdomains, on a dot boundary). */
export const CODE_DOMAINS = [
  "docs.python.org",
  "nodejs.org",
  "go.dev",
  "pkg.go.dev",
  "docs.rs",
  "doc.rust-lang.org",
  "developer.mozilla.org",
  "github.com",
  "githubusercontent.com",
  "pypi.org",
  "npmjs.com",
  "crates.io",
  "stackoverflow.com",
  "nvd.nist.gov",
  "cve.org",
] as const;

export type Scope = "general" | "code";

/** `gist.github.com` is inside `github.com`; `evilgithub.com` is not. */
export function hostInDomains(host: string, domains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  return domains.some((d) => h === d || h.endsWith(`.${d}`));
}

export function urlInDomains(url: string, domains: readonly string[]): boolean {
  try {
    return hostInDomains(new URL(url).hostname, domains);
  } catch {
    return false;
  }
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Extra hosts for one coding search. Anything that is not a plain host name is refused whole, before any
 * request: a wildcard or a URL here would quietly widen the filter to the whole web.
 */
export function validateAllowedHosts(
  value: unknown,
  scope: Scope,
): { ok: true; hosts: string[] } | { ok: false; reason: string } {
  if (value === undefined) return { ok: true, hosts: [] };
  if (scope !== "code") return { ok: false, reason: 'allowedHosts is only accepted with scope "code"' };
  if (!Array.isArray(value) || value.some((h) => typeof h !== "string"))
    return { ok: false, reason: "allowedHosts must be an array of host names" };
  if (value.length === 0) return { ok: false, reason: "allowedHosts is empty" };
  const hosts: string[] = [];
  for (const raw of value as string[]) {
    const host = raw.trim().toLowerCase();
    if (!host) return { ok: false, reason: "allowedHosts contains an empty entry" };
    if (host.includes("*")) return { ok: false, reason: "allowedHosts may not contain wildcards" };
    if (host.includes("://") || host.includes("/"))
      return { ok: false, reason: "allowedHosts takes host names, not URLs or paths" };
    if (host.includes("@")) return { ok: false, reason: "allowedHosts may not contain credentials" };
    if (host.includes(":")) return { ok: false, reason: "allowedHosts may not contain ports" };
    if (host.startsWith(".")) return { ok: false, reason: "allowedHosts entries may not start with a dot" };
    const labels = host.split(".");
    if (labels.length < 2 || labels.some((l) => !HOST_LABEL.test(l)))
      return { ok: false, reason: "allowedHosts contains an invalid host name" };
    hosts.push(host);
  }
  const added = hosts.filter((h) => !hostInDomains(h, CODE_DOMAINS));
  if (added.length === 0) return { ok: false, reason: "allowedHosts adds nothing beyond the coding domains" };
  return { ok: true, hosts: [...new Set(added)] };
}
