import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cliFile, type CliResult } from './cli.js';

export interface MeasuredResult extends CliResult {
  /** The CLI process's peak resident set (VmHWM, a high-water mark kept by the kernel), in MiB. */
  peakRssMiB: number;
}

/**
 * Runs the built CLI and reads its peak RSS from /proc/PID/status (VmHWM) while it runs: the contract runner keeps
 * vitest's worker in its own process (threads pool), so this one number is the runner's whole footprint.
 */
export function runCliMeasured(args: string[], env: Record<string, string> = {}): Promise<MeasuredResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliFile, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    let peakKiB = 0;
    const sample = () => {
      try {
        const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (match) peakKiB = Math.max(peakKiB, Number(match[1]));
      } catch {
        // The process has just ended: the last sample stands.
      }
    };
    const timer = setInterval(sample, 25);
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    // 'exit' comes before the streams close; the zombie's status is gone by then, so sample on every tick above.
    child.on('close', (code) => {
      clearInterval(timer);
      resolve({ code, stdout, stderr, peakRssMiB: Math.round(peakKiB / 1024) });
    });
  });
}
