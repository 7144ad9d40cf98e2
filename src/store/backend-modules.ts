import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type * as Ioredis from "ioredis";

// The store backends' drivers are CommonJS, so they can be required at the moment a backend opens: the
// constructors stay synchronous, and a process that never opens sqlite or Redis (a library user on the memory
// store, `websift --help`) never loads either.
const require = createRequire(import.meta.url);

export const loadIoredis = (): typeof Ioredis => require("ioredis");
export const loadBetterSqlite3 = (): typeof BetterSqlite3 => require("better-sqlite3");
