import type { NetSettings } from "../config/settings.js";

/**
 * Which proxy, if any, carries a request. undici's EnvHttpProxyAgent makes the same choice internally, but the
 * guard must know it before dispatch: through a proxy, names are resolved by the proxy, not by us.
 */
export type ProxySettings = Pick<NetSettings, "httpProxy" | "httpsProxy" | "noProxy">;

export function proxyFor(url: URL, proxies: ProxySettings): string | undefined {
  const proxy = url.protocol === "https:" ? (proxies.httpsProxy ?? proxies.httpProxy) : proxies.httpProxy;
  if (!proxy) return undefined;
  if (isLoopback(url) || bypassed(url, proxies.noProxy ?? "")) return undefined;
  return proxy;
}

/**
 * This machine is never reached through an egress proxy, which cannot see it (as Go's ProxyFromEnvironment
 * decides). Only an operator-trusted origin (a local SearXNG, LLM server or DevTools endpoint) gets that far:
 * the URL policy refuses loopback for everything else.
 */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    host === "::1" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  for (const raw of noProxy.split(/[,\s]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === "*") return true;
    const [name, entryPort] = entry.startsWith("[")
      ? [entry.slice(1, entry.indexOf("]")), ""]
      : entry.split(":");
    if (entryPort && entryPort !== port) continue;
    const bare = name.replace(/^\*?\./, "");
    if (host === bare || host.endsWith(`.${bare}`)) return true;
  }
  return false;
}
