/**
 * A step count for complexity tests, free of wall-clock time: how many array elements the code under test
 * touches (iterated, scanned, moved, copied). A pass that is quadratic in its input makes this count grow with
 * the square of the input; the tests compare the count at two sizes.
 */
type Method = (this: unknown[], ...args: unknown[]) => unknown;

const SCANS = ["filter", "map", "some", "every", "forEach", "find"];
const MOVES = ["shift", "unshift", "join", "reverse", "concat", "findIndex", "reduce", "flat"];

export async function arrayWork(run: () => unknown): Promise<number> {
  const proto = Array.prototype as unknown as Record<string | symbol, Method>;
  const saved = new Map<string | symbol, Method>();
  let work = 0;
  const wrap = (
    name: string | symbol,
    cost: (length: number, args: unknown[], result: unknown) => number,
  ) => {
    const original = proto[name]!;
    saved.set(name, original);
    proto[name] = function (this: unknown[], ...args: unknown[]) {
      const length = this.length;
      const result = original.apply(this, args);
      work += cost(length, args, result);
      return result;
    };
  };
  for (const name of [...SCANS, ...MOVES]) wrap(name, (length) => length);
  // A search costs what it looks at: up to the element found.
  wrap("indexOf", (length, _, at) => (at === -1 ? length : (at as number) + 1));
  wrap("lastIndexOf", (length, _, at) => (at === -1 ? length : length - (at as number)));
  wrap("includes", (length) => length);
  wrap("splice", (length, [start]) => Math.max(1, length - Number(start ?? 0)));
  wrap("slice", (length) => length);
  wrap("sort", (length) => Math.ceil(length * Math.log2(length + 1)));
  const iterate = proto[Symbol.iterator]!;
  saved.set(Symbol.iterator, iterate);
  proto[Symbol.iterator] = function (this: unknown[]) {
    const inner = iterate.call(this) as Iterator<unknown>;
    return {
      next() {
        work++;
        return inner.next();
      },
      [Symbol.iterator]() {
        return this;
      },
    };
  };
  try {
    await run();
  } finally {
    for (const [name, original] of saved) proto[name] = original;
  }
  return work;
}

/** How the step count grows from `n` to `4n`: about 4 for a linear pass, about 16 for a quadratic one. */
export async function growth(make: (n: number) => () => unknown, n: number): Promise<number> {
  const small = await arrayWork(make(n));
  const large = await arrayWork(make(4 * n));
  return large / small;
}
