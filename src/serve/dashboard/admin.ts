import type { FastifyInstance, FastifyReply } from "fastify";
import { z } from "zod";
import { readWebAbility, writeWebAbility } from "../../config/abilities.js";
import { updateConfigFile } from "../../config/config-file.js";
import { readEnvFile, validEnvValue, writeEnvVariable } from "../../config/env-file.js";
import { ConfigError } from "../../config/load.js";
import { settingSpecs } from "../../config/schema.js";
import { type Provider, providerTimeoutMs } from "../../search/provider.js";
import { providerHealth } from "../../surface/doctor.js";
import type { ServeContext } from "../context.js";

/** The settings Settings → Web edits: each one takes effect on the next call after a save. */
export const WEB_SETTINGS = [
  "providerOrder",
  "searxngUrl",
  "safeSearch",
  "maxResults",
  "maxChars",
  "longPageMode",
  "waitSeconds",
  "enablePaid",
] as const;

/**
 * Keys the page may write to `.env`, as the providers declare them (`keyEnv`, the first name is the one written);
 * nothing else can be named. A self-hosted engine's `keyEnv` is its URL, a setting of the Web tab, not a key.
 */
export function keyedProviders(
  providers: readonly Provider[],
): { name: string; keyEnv: readonly string[] }[] {
  return providers
    .filter((p) => (p.kind === "keyed" || p.kind === "model") && p.keyEnv?.length)
    .map((p) => ({ name: p.name, keyEnv: p.keyEnv as readonly string[] }));
}

const specOf = (key: string) => settingSpecs().find((s) => s.key === key);

// Built when the routes are registered: the settings' schemas are built on first use, not at import.
const settingsBodyOf = () =>
  z.strictObject({
    ...Object.fromEntries(
      WEB_SETTINGS.map((key) => [key, (specOf(key)?.schema ?? z.never()).nullable().optional()]),
    ),
    budgets: z.record(z.string(), z.number().int().min(100).max(600_000)).nullable().optional(),
  });
const abilitiesBody = z.strictObject({ web: z.boolean() });
const keyBody = z.strictObject({ value: z.string().trim() });

/** `/v1/admin/*`: what the dashboard reads and changes. Secrets go in, never out. */
export function registerAdmin(app: FastifyInstance, ctx: ServeContext): void {
  const bad = (reply: FastifyReply, reason: string) => reply.code(400).send({ error: reason });
  const settingsBody = settingsBodyOf();

  app.get("/v1/admin/abilities", async () => abilities(ctx));
  app.put("/v1/admin/abilities", async (request, reply) => {
    const body = abilitiesBody.safeParse(request.body);
    if (!body.success) return bad(reply, 'send {"web": true} or {"web": false}');
    await writeWebAbility(ctx.store, body.data.web);
    ctx.log(`dashboard: web access turned ${body.data.web ? "on" : "off"}`);
    return abilities(ctx);
  });

  app.get("/v1/admin/settings", async () => settings(ctx));
  app.put("/v1/admin/settings", async (request, reply) => {
    const body = settingsBody.safeParse(request.body);
    if (!body.success) return bad(reply, issueLine(body.error));
    const changes = body.data as Record<string, unknown>;
    const known = new Set(ctx.websift().providers.map((p) => p.name));
    const order = changes.providerOrder;
    if (typeof order === "string") {
      const unknown = order.split(",").filter((n) => !known.has(n) && n !== "keyless");
      if (unknown.length) return bad(reply, `providerOrder: unknown provider ${unknown.join(", ")}`);
    }
    const budgets = changes.budgets as Record<string, number> | null | undefined;
    const unknownBudget = Object.keys(budgets ?? {}).filter((n) => !known.has(n));
    if (unknownBudget.length) return bad(reply, `budgets: unknown provider ${unknownBudget.join(", ")}`);
    if (budgets && !Object.keys(budgets).length) changes.budgets = null;
    try {
      updateConfigFile(ctx.configPath, changes);
    } catch (error) {
      if (error instanceof ConfigError) return bad(reply, error.message);
      throw error;
    }
    const failed = await reloaded(ctx);
    if (failed) return bad(reply, failed);
    ctx.log(`dashboard: settings saved to ${ctx.configPath} (${Object.keys(changes).join(", ")})`);
    return settings(ctx);
  });

  app.put<{ Params: { name: string } }>("/v1/admin/keys/:name", async (request, reply) => {
    const names = keyEnv(ctx, request.params.name);
    if (!names) return bad(reply, unknownKey(ctx, request.params.name));
    const env = names[0];
    const body = keyBody.safeParse(request.body);
    if (!body.success || !validEnvValue(body.data.value))
      return bad(reply, "the key must be 8 to 512 letters, digits or . _ ~ + / = : -");
    writeEnvVariable(ctx.envPath, env, body.data.value);
    const failed = await reloaded(ctx);
    if (failed) return bad(reply, failed);
    ctx.log(`dashboard: ${env} written to ${ctx.envPath}`);
    return { keys: keys(ctx) };
  });
  app.delete<{ Params: { name: string } }>("/v1/admin/keys/:name", async (request, reply) => {
    const names = keyEnv(ctx, request.params.name);
    if (!names) return bad(reply, unknownKey(ctx, request.params.name));
    const env = names[0];
    // A key may be in .env under another of its names (Gemini's GOOGLE_API_KEY), which the page shows as set too.
    for (const name of names) writeEnvVariable(ctx.envPath, name, undefined);
    const failed = await reloaded(ctx);
    if (failed) return bad(reply, failed);
    ctx.log(`dashboard: ${env} removed from ${ctx.envPath}`);
    return { keys: keys(ctx) };
  });

  app.get("/v1/admin/health", async () => health(ctx));
}

function keyEnv(ctx: ServeContext, name: string): readonly string[] | undefined {
  return keyedProviders(ctx.websift().providers).find((p) => p.name === name)?.keyEnv;
}

function unknownKey(ctx: ServeContext, name: string): string {
  const known = keyedProviders(ctx.websift().providers).map((p) => p.name);
  return `unknown key "${name.slice(0, 40)}" (known: ${known.join(", ")})`;
}

/** Reloads; a configuration mistake elsewhere (a bad line in .env) is the reason to show, and the old instance runs on. */
async function reloaded(ctx: ServeContext): Promise<string | undefined> {
  try {
    await ctx.reload();
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError) return `saved, but the configuration does not load: ${error.message}`;
    throw error;
  }
}

async function abilities(ctx: ServeContext) {
  const web = await readWebAbility(ctx.store);
  const config = ctx.config();
  const enabled = config.settings.find((s) => s.key === "enabled");
  const heldOffBy =
    enabled?.source === "env" && enabled.value === false
      ? "WEBSIFT_ENABLED=0 in the environment"
      : enabled?.value === false
        ? `"enabled": false in ${config.file ?? "the config file"}`
        : undefined;
  return {
    web: {
      on: web.on,
      ...(web.changedAt ? { changedAt: new Date(web.changedAt).toISOString() } : {}),
      ...(heldOffBy ? { heldOffBy } : {}),
    },
  };
}

function settings(ctx: ServeContext) {
  const config = ctx.config();
  return {
    configFile: ctx.configPath,
    settings: WEB_SETTINGS.map((key) => {
      const s = config.settings.find((x) => x.key === key);
      const spec = specOf(key);
      return {
        key,
        env: spec?.env,
        about: spec?.about,
        value: s?.value ?? null,
        source: s?.source ?? "default",
        // A value from the environment wins over the file: saving here would not change what runs.
        ...(s?.source === "env" ? { setBy: s.envOrigin === "dotenv" ? ".env" : "environment" } : {}),
      };
    }),
    budgets: config.budgets,
    providers: ctx
      .websift()
      .providers.map((p) => ({ name: p.name, paid: p.paid, budgetMs: providerTimeoutMs(p) })),
    keys: keys(ctx),
  };
}

/** Whether each key is set and where: never a character of its value. */
function keys(ctx: ServeContext) {
  const config = ctx.config();
  const inFile = readEnvFile(ctx.envPath);
  return keyedProviders(ctx.websift().providers).map(({ name, keyEnv: names }) => {
    const env = names[0];
    const setAs = names.find((n) => config.values.keys[n]);
    const set = setAs !== undefined;
    const fromProcess = set && config.origin(setAs) === "process";
    return {
      name,
      env,
      set,
      where: set ? (fromProcess ? "environment" : ".env") : null,
      // The page can write .env, but a value in the real environment wins over it.
      overridden: fromProcess && inFile[env] !== undefined,
    };
  });
}

async function health(ctx: ServeContext) {
  const websift = ctx.websift();
  const config = ctx.config();
  const activity = ctx.activity();
  const failures: Record<string, number> = {};
  for (const a of activity)
    if (!["ok", "partial", "pending"].includes(a.status)) failures[a.status] = (failures[a.status] ?? 0) + 1;
  return {
    web: (await abilities(ctx)).web,
    store: ctx.store.status(),
    providers: await providerHealth(websift, config.values),
    failures,
    recent: activity.slice(0, 30),
  };
}

function issueLine(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue?.code === "unrecognized_keys") return `unknown setting ${issue.keys.join(", ")}`;
  return `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`;
}
