import { createRequire } from "node:module";
import type * as Undici from "undici";

// undici is about a hundred CommonJS files. It is required when the first net is built (dispatchers.ts,
// connector.ts, interim-responses.ts), so a process that imports the package and never builds one (`websift
// --help`, a program that only uses the helpers) never loads it; CommonJS can be required synchronously, so
// createNet stays synchronous.
const require = createRequire(import.meta.url);

export const loadUndici = (): typeof Undici => require("undici");
