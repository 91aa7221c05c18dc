import type { ChildProcess } from 'node:child_process';

/**
 * How a test starts one of the project's scripts as a process of its own:
 * Node with tsx's loader (`node --import tsx scripts/…`), the same code
 * `npm run …` runs. Not `npx tsx`: that is three Node processes (npx
 * finding the package, tsx's command line, then the script), about 1 CPU-s
 * more for every start, and the start-up tests start dozens.
 */
export function scriptProcess(script: string, ...args: string[]): [command: string, args: string[]] {
  return [process.execPath, ['--import', 'tsx', script, ...args]];
}

/**
 * Stops a script started in a process group of its own (`detached`) and
 * everything it started: Ctrl-C first, as a person would, then SIGKILL if
 * it is still there 10 s later. Resolves once the script has exited.
 */
export async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.kill(-child.pid, 'SIGINT');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone already
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
