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

/**
 * The switches that make Chromium's only camera a video file (a .y4m at
 * an absolute path, as tests/support/fakeCamera.ts writes; Chromium loops
 * it). A page still needs the camera permission: grant it to the app's
 * origin (`context.grantPermissions(['camera'], { origin })`), as the
 * officer would; without it headless Chromium refuses the camera
 * (NotAllowedError). Not --use-fake-ui-for-media-stream, which would allow
 * every page: a journey could not see the app's answer to a refusal.
 * For a persistent profile, pass them as launchPersistentChromium's extraArgs.
 */
export function fakeCameraArgs(file: string): string[] {
  return ['--use-fake-device-for-media-stream', `--use-file-for-fake-video-capture=${file}`];
}

export interface ChromiumOptions extends LaunchOptions {
  /** A .y4m video every page gets as its camera (fakeCameraArgs); without it, Chromium as always. */
  fakeCamera?: string;
}

export async function launchChromium(options: ChromiumOptions = {}): Promise<Browser> {
  checkInstalled();
  const { fakeCamera, ...launchOptions } = options;
  const args = fakeCamera ? [...FLAGS, ...fakeCameraArgs(fakeCamera)] : FLAGS;
  return chromium.launch({ executablePath: LAUNCHER, env: launcherEnv(), headless: true, args, ...launchOptions });
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
