import type { Store } from "../store/store.js";
import type { EnabledSetting } from "./settings.js";

/** The web skill's switch lives in the shared store, so every process sharing it sees a change on its next call. */
export const WEB_ABILITY_KEY = "abilities:web";
// The Store interface only knows expiring entries; a century stands for "until the operator changes it".
const KEEP_MS = 100 * 365 * 24 * 3600 * 1000;

export interface WebAbility {
  on: boolean;
  /** When the operator last flipped it (epoch ms); absent while it has never been touched (on). */
  changedAt?: number;
}

type MaybeStatusStore = Store & { status?: () => { degraded: boolean } };

/** The last state read through each store, for when it is standing in for an unreachable backend. */
const lastKnown = new WeakMap<Store, WebAbility>();

export async function readWebAbility(store: MaybeStatusStore): Promise<WebAbility> {
  const saved = await store.get<WebAbility>(WEB_ABILITY_KEY);
  if (saved && typeof saved.on === "boolean") {
    lastKnown.set(store, saved);
    return saved;
  }
  // A Redis outage hands reads to an empty local fallback: an operator's "off" must not turn into "on" there.
  const known = lastKnown.get(store);
  if (known && store.status?.().degraded) return known;
  return { on: true };
}

export async function writeWebAbility(store: Store, on: boolean): Promise<WebAbility> {
  const state: WebAbility = { on, changedAt: Date.now() };
  await store.set(WEB_ABILITY_KEY, state, KEEP_MS);
  lastKnown.set(store, state);
  return state;
}

/**
 * createWebsift's `enabled`: the configured value (config file `enabled`, itself possibly a function) and the
 * switch must both allow. One store read per call; a search starts it beside its cache read, so on Redis the
 * two share one round trip.
 */
export function webAbilityGate(
  store: MaybeStatusStore,
  configured: EnabledSetting = true,
): () => Promise<boolean> {
  return async () => {
    const base = typeof configured === "function" ? await configured() : configured;
    return base !== false && (await readWebAbility(store)).on;
  };
}
