/**
 * Translation of user-facing text without a `vscode` import: the core calls `l10n.t('English text {0}', arg)`
 * (the same call shape as `vscode.l10n.t`, so `npm run l10n:export` (scripts/l10n-export.mjs, @vscode/l10n-dev)
 * finds the strings), and the VS Code shell installs `vscode.l10n.t` as the translator at activation, which
 * looks them up in l10n/bundle.l10n.<lang>.json. Without one (tests, the CLI) the English text is used with its
 * `{0}`/`{name}` placeholders filled in. Call it when the text is shown, never at module load (the translator
 * is installed later).
 */
export type L10nArgs = readonly (string | number | boolean)[] | Readonly<Record<string, string | number | boolean>>;
export type Translator = (message: string, args: L10nArgs) => string;

/** Fills `{0}` or `{name}` placeholders; an unknown placeholder is left as written. */
export function fillPlaceholders(message: string, args: L10nArgs): string {
  const values = args as Readonly<Record<string, string | number | boolean>>;
  return message.replace(/\{([^{}]+)\}/g, (whole, key: string) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}

let translator: Translator = fillPlaceholders;

export const l10n = {
  /** `t('Stopped {0}', name)` or `t('Stopped {name}', { name })`. */
  t(
    message: string,
    ...args: (string | number | boolean)[] | [Readonly<Record<string, string | number | boolean>>]
  ): string {
    const first = args[0];
    const values: L10nArgs =
      args.length === 1 && typeof first === 'object' && first !== null
        ? (first as Readonly<Record<string, string | number | boolean>>)
        : (args as (string | number | boolean)[]);
    return translator(message, values);
  },
};

/** Installed once by the VS Code shell (vscode.l10n.t); returns a function that puts back the previous one. */
export function setTranslator(next: Translator): () => void {
  const previous = translator;
  translator = next;
  return () => {
    translator = previous;
  };
}
