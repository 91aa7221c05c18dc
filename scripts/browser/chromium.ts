/**
 * Launches Debian's Chromium with playwright-core (test tools may not
 * download browsers on these machines). Shared by the browser tests, the
 * benchmarks and the icon renderer.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * What Playwright starts: a script that merges the feature switches and
 * starts CHROMIUM_PATH (Chromium honours only the last --disable-features,
 * and Playwright puts its own before ours).
 */
const LAUNCHER = join(import.meta.dirname, 'chromium-launcher.sh');
const launcherEnv = () => ({ ...process.env, SCMS_CHROMIUM: CHROMIUM_PATH });

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
  // Headless Chromium still builds a window's browser UI, and for every new
  // page loaded the address bar's suggestion popup, a web page of its own:
  // about 1 CPU-second a page, a ninth of the browser tests' processor time.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI',
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
  return chromium.launch({ executablePath: LAUNCHER, env: launcherEnv(), headless: true, args: FLAGS, ...options });
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
    executablePath: LAUNCHER,
    env: launcherEnv(),
    headless: true,
    args: [...FLAGS, ...extraArgs],
  });
}
