import { spawn } from "node:child_process";
import { createInterface } from "node:readline";

/**
 * A TCP port on 127.0.0.1 where connect() never completes: a listener with a backlog of 0 that never accepts,
 * its one-slot accept queue filled by its own connections, so Linux drops every further SYN. Node accepts on
 * its own, hence a small python3 process. It exits when its stdin closes, so it cannot outlive the tests.
 */
const SCRIPT = `
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.bind(("127.0.0.1", 0))
s.listen(0)
port = s.getsockname()[1]
fillers = []
for _ in range(3):
    c = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    c.setblocking(False)
    try:
        c.connect(("127.0.0.1", port))
    except BlockingIOError:
        pass
    fillers.append(c)
print(port, flush=True)
sys.stdin.read()
`;

export async function startBlackHole(): Promise<{ port: number; close(): Promise<void> }> {
  const child = spawn("python3", ["-c", SCRIPT], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once("error", (err) =>
      reject(new Error(`simweb's black hole needs python3 on PATH (${(err as Error).message})`)),
    );
    createInterface({ input: child.stdout }).once("line", (line) => resolve(Number(line)));
  });
  child.unref();
  return {
    port,
    async close() {
      child.stdin?.end();
      child.kill();
      await exited;
    },
  };
}
