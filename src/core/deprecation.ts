const warned = new Set<string>();

/**
 * Says once per process, on stderr as Node's `DeprecationWarning` (silenced by `--no-deprecation` like any
 * other), that `name` goes in the next minor version. `code` groups the warnings a caller may filter on.
 */
export function warnDeprecated(name: string, message: string, code: string): void {
  if (warned.has(name)) return;
  warned.add(name);
  process.emitWarning(message, { type: "DeprecationWarning", code });
}

/**
 * An option renamed for the one spelling of a time budget (`timeoutMs` for a call's budget, `…TimeoutMs` for a
 * cap of one part, a `Deadline` only in `deadline`): the old name still works for one minor version.
 */
export function warnRenamedOption(old: string, now: string): void {
  warnDeprecated(
    old,
    `websift: ${old} is deprecated, use ${now}; the old name goes in the next minor version`,
    "websift-option-name",
  );
}
