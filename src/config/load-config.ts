import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from '../input-errors.js';

/** The file looked for in the current directory when no `--config` is given. */
export const CONFIG_FILE = 'petstore-kit.config.json';

export type FlagTable = NonNullable<ParseArgsConfig['options']>;
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface ConfigOptions {
  /** The command's flags (the table handed to `parseArgs`): a config key is a long flag name. */
  flags: FlagTable;
  /** Flags a config file may not set (`help`, `config`). */
  exclude?: readonly string[];
  /**
   * Keys other commands reading the same file take (`upstream` for the proxy, `max-pets` for the mock): skipped
   * here, and judged by the command they belong to. A key no command takes is still refused.
   */
  leftToOthers?: Iterable<string>;
  /** Flags whose value is a file: a relative path in the config is relative to the config file, as in tsconfig. */
  fileFlags?: ReadonlySet<string>;
  /** Default: process.cwd(). */
  cwd?: string;
}

export interface LoadedConfig {
  /** The file as named to the user: as given to `--config`, or `petstore-kit.config.json`. */
  file: string;
  /** In `parseArgs` form: strings, booleans and string arrays. */
  values: FlagValues;
}

/**
 * Reads a config file holding any of a command's flags by their long names, e.g.
 * `{ "port": 4011, "api-key": ["a", "b"], "quiet": true }`. With `explicit` (from `--config`) the file must exist;
 * otherwise `petstore-kit.config.json` in the current directory is used when present. Keys no command takes and
 * wrong types are a UsageError naming the file and the key, so a typo never passes silently.
 * @example const config = await loadConfig(undefined, { flags }); const values = { ...config?.values, ...flagValues };
 */
export async function loadConfig(
  explicit: string | undefined,
  options: ConfigOptions,
): Promise<LoadedConfig | undefined> {
  const cwd = options.cwd ?? process.cwd();
  const file = explicit ?? CONFIG_FILE;
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && explicit === undefined) return undefined;
    throw new UsageError(
      `${explicit === undefined ? file : `--config ${file}`}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new UsageError(`${file}: must hold a JSON object of flags`);
  const values: FlagValues = {};
  const excluded = new Set(options.exclude ?? []);
  const known = Object.keys(options.flags).filter((name) => !excluded.has(name));
  const others = new Set(options.leftToOthers);
  for (const [key, value] of Object.entries(parsed)) {
    const flag = Object.hasOwn(options.flags, key) && !excluded.has(key) ? options.flags[key] : undefined;
    if (!flag && others.has(key)) continue;
    if (!flag) throw new UsageError(`${file}: unknown key "${key}"; keys are the long flag names: ${known.join(', ')}`);
    const converted = convert(value, flag);
    if (converted === undefined)
      throw new UsageError(`${file}: "${key}" must be ${expected(flag)} (got ${describe(value)})`);
    values[key] = options.fileFlags?.has(key) ? relativeTo(dirname(path), converted) : converted;
  }
  return { file, values };
}

/**
 * The flags a help text shows as taking a FILE (`--spec FILE`), so that flags other commands add are handled
 * without a second list.
 */
export function flagsTaking(placeholder: string, help: string): Set<string> {
  return new Set(
    [...help.matchAll(new RegExp(`--([a-z][a-z0-9-]*) ${placeholder}\\b`, 'g'))].map((match) => match[1] as string),
  );
}

type Flag = FlagTable[string];

function convert(value: unknown, flag: Flag): string | boolean | string[] | undefined {
  if (flag.type === 'boolean') return typeof value === 'boolean' ? value : undefined;
  if (flag.multiple) {
    const items = Array.isArray(value) ? value : [value];
    const strings = items.map(scalar);
    return strings.every((item) => item !== undefined) ? strings : undefined;
  }
  return scalar(value);
}

// JSON numbers are welcome where a flag takes a number (`"port": 4011`); the command checks the range as for flags.
function scalar(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function expected(flag: Flag): string {
  if (flag.type === 'boolean') return 'true or false';
  return flag.multiple ? 'a string, a number or an array of them' : 'a string or a number';
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function relativeTo(directory: string, value: string | boolean | string[]): string | boolean | string[] {
  // A flag that takes a FILE or a URL (`--spec`): a URL is left as it is.
  const fix = (path: string) => (isAbsolute(path) || /^https?:\/\//i.test(path) ? path : resolve(directory, path));
  if (typeof value === 'string') return fix(value);
  return Array.isArray(value) ? value.map(fix) : value;
}
