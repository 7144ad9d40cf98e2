import { settingsFromEnv } from "../config/load.js";
import { classifyError } from "./failure.js";
import { type ProxySettings, proxyFor } from "./proxy.js";
import { systemResolve } from "./resolver.js";
import { checkUrl, type Resolve, vetAddresses } from "./url-policy.js";

/** `viaProxy`: the URL goes through the configured proxy, which resolves its name; no address was looked up. */
export type VetResult =
  | { ok: true; addresses: string[]; viaProxy?: true }
  | { ok: false; code: string; reason: string };

export interface VetOptions {
  resolve?: Resolve;
  /**
   * The proxies net uses (`Settings.net`). A URL that a proxy carries is judged as net judges it: rule 1 here,
   * the name left to the proxy, since a machine behind an egress proxy often has no DNS of its own for public
   * names.
   */
  proxies?: ProxySettings;
  /** Without `proxies`: an environment to read HTTP(S)_PROXY / NO_PROXY from, through the loader. */
  env?: Record<string, string | undefined>;
}

/** The whole address policy (rules 1 and 2) as one call, with an injectable resolver. */
export async function vetUrl(url: string, options: VetOptions = {}): Promise<VetResult> {
  const checked = checkUrl(url);
  if (!checked.ok) return { ok: false, code: checked.code, reason: checked.reason };
  if (checked.literal) return { ok: true, addresses: [checked.literal] };
  const proxies = options.proxies ?? (options.env ? settingsFromEnv(options.env).net : undefined);
  if (proxies && proxyFor(checked.url, proxies)) return { ok: true, addresses: [], viaProxy: true };
  let addresses: string[];
  try {
    addresses = await (options.resolve ?? systemResolve)(checked.hostname);
  } catch (err) {
    const failure = classifyError(err, checked.url.href, "dns");
    return { ok: false, code: failure.code, reason: failure.message };
  }
  const verdict = vetAddresses(checked.hostname, addresses);
  if (!verdict.ok) return { ok: false, code: "blocked_url", reason: verdict.reason };
  return { ok: true, addresses };
}
