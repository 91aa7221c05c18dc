import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { bundleBudget } from './scripts/bundle-budget.ts';

// The API the dev server proxies to (`npm run dev` starts PocketBase there).
const apiTarget = process.env.SCMS_API_URL ?? `http://127.0.0.1:${process.env.PB_PORT ?? '8090'}`;

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      // Our own worker in sw/ (precache, offline shell, background sync).
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'SCMS',
        short_name: 'SCMS',
        description: 'Patrol, homes, calls and incident reports for residential community security staff',
        start_url: '/homes',
        scope: '/',
        display: 'standalone',
        background_color: '#ffffff',
        theme_color: '#000000',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // A classic (IIFE) worker bundle: the plugin's ES-module path sets
        // Rollup's inlineDynamicImports, which Vite 8 (Rolldown) deprecates
        // with a warning on every build; one self-contained file is what a
        // service worker needs anyway.
        rollupFormat: 'iife',
      },
      devOptions: { enabled: false },
    }),
    // Fails the build when the login page or the Homes screen loads more JS than the bundle budget allows.
    bundleBudget(),
  ],
  resolve: {
    // jsPDF's optional helpers for doc.html() and SVG, never used (see the stand-in's comment).
    alias: Object.fromEntries(
      ['html2canvas', 'dompurify', 'canvg'].map((name) => [
        name,
        fileURLToPath(new URL('./src/features/activity/jspdfOptional.ts', import.meta.url)),
      ]),
    ),
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    // .vite/manifest.json: which chunks each route loads, for the bundle budget.
    manifest: true,
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/api': { target: apiTarget },
    },
  },
});
