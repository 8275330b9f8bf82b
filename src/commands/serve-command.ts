import { flagsTaking, loadConfig, type FlagTable, type FlagValues, type LoadedConfig } from '../config/load-config.js';
import { UsageError } from './usage-error.js';
import { packageVersion } from '../package-version.js';

/** The flags every serving command has (`mock`, `proxy`). */
interface CommonFlags {
  help?: boolean;
  version?: boolean;
  config?: string;
  'no-config'?: boolean;
}

export interface ServeCommand<V> {
  /** The command's flags, as `parseArgs` takes them: the config file's keys are their long names. */
  table: FlagTable;
  /** Its `--help` text (flags shown taking a FILE are paths relative to the config file). */
  help: string;
  /**
   * The flags of the other commands that read the same config file: their keys are left to them rather than
   * refused, so one `petstore-kit.config.json` can hold the mock's and the proxy's settings side by side.
   */
  sharedWith: FlagTable;
  /** Starts the command on the merged values; resolves with the exit code when it stops. */
  serve: (values: Partial<V>, config: LoadedConfig | undefined) => Promise<number>;
}

const NOT_IN_FILES = ['help', 'version', 'config', 'no-config'];

/**
 * What `mock` and `proxy` share before they start: `--help` and `--version`, then the config file (unless
 * `--no-config`) with the command line's flags over it, and a bad value that came from the file reported against
 * the file and its key rather than a flag never typed.
 */
export async function runServeCommand<V extends FlagValues & CommonFlags>(
  flags: V,
  command: ServeCommand<V>,
): Promise<number> {
  if (flags.help) {
    process.stdout.write(command.help);
    return 0;
  }
  if (flags.version) {
    console.log(packageVersion());
    return 0;
  }
  const config = flags['no-config']
    ? undefined
    : await loadConfig(flags.config, {
        flags: command.table,
        exclude: NOT_IN_FILES,
        leftToOthers: Object.keys(command.sharedWith).filter((name) => !NOT_IN_FILES.includes(name)),
        fileFlags: flagsTaking('FILE', command.help),
      });
  const values = { ...(config?.values as Partial<V>), ...flags };
  try {
    return await command.serve(values, config);
  } catch (error) {
    throw blameConfig(error, config, flags);
  }
}

function blameConfig(error: unknown, config: LoadedConfig | undefined, flags: FlagValues): unknown {
  const name = error instanceof UsageError ? /^--([a-z0-9-]+) /.exec(error.message)?.[1] : undefined;
  if (!config || !name || !(name in config.values) || name in flags) return error;
  return new UsageError(`${config.file}: "${name}"${(error as UsageError).message.slice(name.length + 2)}`);
}
