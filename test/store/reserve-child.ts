// Another websift process sharing the state file: books `count` slots and prints when each one falls.
import { SqliteStore } from "../../src/store/sqlite.js";

const [path, key, count, interval] = process.argv.slice(2);
const store = new SqliteStore(path);
process.stdout.write("ready\n");
const slots: number[] = [];
for (let i = 0; i < Number(count); i++) {
  slots.push(Date.now() + (await store.reserveSlot(key, Number(interval))));
  await new Promise((resolve) => setImmediate(resolve));
}
await store.close();
process.stdout.write(`${JSON.stringify(slots)}\n`);
