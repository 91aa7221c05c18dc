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
