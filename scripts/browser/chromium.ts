/**
 * Launches Debian's Chromium with playwright-core (test tools may not
 * download browsers on these machines). Shared by the browser tests, the
 * benchmarks and the icon renderer.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps trying to reach
// Google's hosts, which this machine's closed network refuses.
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function checkInstalled(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
}

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  checkInstalled();
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: FLAGS, ...options });
}

/**
 * A persistent profile: needed where incognito changes behaviour (installability).
 * `extraArgs` add to the flags (bench:lighthouse opens a remote-debugging port for Lighthouse).
 */
export async function launchPersistentChromium(
  userDataDir: string,
  extraArgs: readonly string[] = [],
): Promise<BrowserContext> {
  checkInstalled();
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...extraArgs],
  });
}
