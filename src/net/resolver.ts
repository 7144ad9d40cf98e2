import { lookup } from "node:dns/promises";
import type { Deadline } from "../core/deadline.js";
import { NetError } from "./failure.js";
import type { Resolve } from "./url-policy.js";

/** The system resolver (getaddrinfo, so /etc/hosts and the OS's DNS settings apply), every address at once. */
export const systemResolve: Resolve = async (hostname) => {
  const records = await lookup(hostname, { all: true, verbatim: true });
  return records.map((r) => r.address);
};

/** Resolution bounded by the deadline: getaddrinfo cannot be cancelled, so we stop waiting for it instead. */
export async function resolveWithin(
  resolve: Resolve,
  hostname: string,
  deadline: Deadline,
): Promise<string[]> {
  if (deadline.expired()) throw new NetError("timeout", `timeout resolving ${hostname}`, "dns");
  let off: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    off = deadline.onAbort(() => reject(new NetError("timeout", `timeout resolving ${hostname}`, "dns")));
  });
  try {
    return await Promise.race([resolve(hostname), aborted]);
  } finally {
    off?.();
  }
}
