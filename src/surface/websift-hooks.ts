import type { Websift } from "../websift.js";

/** The names of the library's methods (its other members are values: `net`, `store`, `providers`, `llm`). */
export type WebsiftMethod = {
  [K in keyof Websift]-?: Websift[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof Websift];

export type ArgsOf<M extends WebsiftMethod> = Parameters<Websift[M]>;
export type ResultOf<M extends WebsiftMethod> = Awaited<ReturnType<Websift[M]>>;

/** A method's own hooks, typed by its arguments and result. */
export interface MethodHooks<M extends WebsiftMethod> {
  /**
   * Before the call: go on with `args` (the same or changed), or give `answer` in the call's place without
   * making it. Nothing returned: the call goes on as made.
   */
  before?(args: ArgsOf<M>): { args: ArgsOf<M> } | { answer: ResultOf<M> } | undefined;
  /** After the call answered (not when it threw): the result the caller gets. */
  after?(result: ResultOf<M>, args: ArgsOf<M>): ResultOf<M>;
}

/** Around every call that is made into the library, whichever method: what a surface counts or watches. */
export interface EveryCallHooks {
  /** The call is about to go into the library (its `before` hook did not answer in its place). */
  start?(method: WebsiftMethod): void;
  /** The call into the library ended, answered or thrown. */
  settled?(method: WebsiftMethod): void;
}

export type WebsiftHooks = { readonly [M in WebsiftMethod]?: MethodHooks<M> } & {
  readonly every?: EveryCallHooks;
};

/**
 * Every method of the library, once. A method added to `Websift` is a type error here until it is listed, so
 * every surface that wraps the library through `hookWebsift` wraps the new method too.
 */
const METHODS: Record<WebsiftMethod, true> = {
  search: true,
  read: true,
  fetchBest: true,
  answer: true,
  research: true,
  close: true,
};
export const LIBRARY_METHODS = Object.keys(METHODS) as readonly WebsiftMethod[];

type Methods = Partial<Pick<Websift, WebsiftMethod>>;

/**
 * The library (or the part of it a surface holds) with every method it has wrapped by `hooks`; its other
 * members are the wrapped instance's own, read through. A call runs: its method's `before`, then `every.start`,
 * the library's method, its method's `after`, and `every.settled` however the call ended.
 */
export function hookWebsift<W extends Methods>(websift: W, hooks: WebsiftHooks): W {
  const hooked = Object.create(websift) as W;
  for (const method of LIBRARY_METHODS) {
    if (typeof websift[method] === "function")
      Object.defineProperty(hooked, method, { value: wrapped(websift, method, hooks) });
  }
  return hooked;
}

function wrapped<M extends WebsiftMethod>(websift: Methods, method: M, hooks: WebsiftHooks) {
  // The hooks map is keyed by method, so its entry for M is M's hooks; TypeScript does not relate the two.
  const own = hooks[method] as MethodHooks<M> | undefined;
  const call = websift[method] as unknown as (...args: ArgsOf<M>) => Promise<ResultOf<M>>;
  return async (...given: ArgsOf<M>): Promise<ResultOf<M>> => {
    const before = own?.before?.(given);
    if (before && "answer" in before) return before.answer;
    const args = before ? before.args : given;
    hooks.every?.start?.(method);
    try {
      const result = await call.apply(websift, args);
      return own?.after ? own.after(result, args) : result;
    } finally {
      hooks.every?.settled?.(method);
    }
  };
}
