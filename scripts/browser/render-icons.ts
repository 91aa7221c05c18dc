/**
 * Renders public/icons/icon.svg into the PNG icons the web app manifest
 * names (192, 512 and a maskable 512 with a safe-zone margin). Run it after
 * changing the SVG: `npx tsx scripts/browser/render-icons.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../pocketbase/server.ts';
import { launchChromium } from './chromium.ts';

const iconsDir = join(projectRoot, 'public', 'icons');
const svg = readFileSync(join(iconsDir, 'icon.svg'), 'utf8');

const browser = await launchChromium();
try {
  for (const { file, size, maskable } of [
    { file: 'icon-192.png', size: 192, maskable: false },
    { file: 'icon-512.png', size: 512, maskable: false },
    { file: 'icon-maskable-512.png', size: 512, maskable: true },
  ]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    // A maskable icon keeps its content inside the central 80% circle.
    const inner = maskable ? Math.round(size * 0.7) : size;
    await page.setContent(
      `<body style="margin:0;background:#000;display:grid;place-items:center;width:${size}px;height:${size}px">` +
        `<div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`,
    );
    await page.screenshot({ path: join(iconsDir, file), omitBackground: false });
    await page.close();
  }
} finally {
  await browser.close();
}
