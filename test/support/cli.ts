import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built CLI, as `npx petstore-kit` runs it (`npm test` builds first); PETSTORE_CLI runs another build's against the tests. */
export const cliFile = process.env.PETSTORE_CLI ?? fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end. */
export function runCli(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  return runProcess(process.execPath, [cliFile, ...args], { env: { ...process.env, ...env }, cwd });
}

/**
 * Runs a command with stdin closed (as a CI step's is) and collects its output. It ends at `close` (its pipes shut),
 * or at `exit` when a background process it started may hold them open.
 */
export function runProcess(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string | undefined; endOn?: 'close' | 'exit' },
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on(options.endOn ?? 'close', (code: number | null) => resolve({ code, stdout, stderr }));
  });
}

export interface StartedCli {
  child: ChildProcess;
  match: RegExpMatchArray;
  /** Everything printed so far, stdout then stderr. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the output once it matches `pattern` (on the output events, not by polling a clock). */
  waitFor: (pattern: RegExp) => Promise<string>;
}

/** Starts a long-running CLI command and resolves once its stdout (or else its stderr) matches `ready`. */
export function startCli(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<StartedCli> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliFile, ...args], { env: { ...process.env, ...env }, cwd });
    let stdout = '';
    let stderr = '';
    const output = () => stdout + stderr;
    const waitFor = (pattern: RegExp) =>
      new Promise<string>((found, lost) => {
        const check = () => {
          if (!pattern.test(output())) return;
          child.stdout.off('data', check);
          child.stderr.off('data', check);
          child.off('close', closed);
          found(output());
        };
        const closed = () => lost(new Error(`exited before printing ${pattern}: ${output()}`));
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        child.once('close', closed);
        check();
      });
    const started = (match: RegExpMatchArray) =>
      resolve({ child, match, output, stdout: () => stdout, stderr: () => stderr, waitFor });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      // The start-up lines go to stderr when stdout is kept for JSON logs.
      const match = stderr.match(ready);
      if (match && !stdout.match(ready)) started(match);
    });
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = stdout.match(ready);
      if (match) started(match);
    });
    child.on('close', (code) => reject(new Error(`exited ${code} before ready: ${stdout}${stderr}`)));
  });
}
