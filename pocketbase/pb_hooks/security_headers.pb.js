/// <reference path="../../.data/pb_data/types.d.ts" />
// Security headers for the app's own pages (the PWA served from publicDir).
// The API (/api/) and PocketBase's admin UI (/_/, which needs inline scripts)
// keep PocketBase's defaults.

routerUse((e) => {
  const path = e.request.url.path;
  if (!path.startsWith('/api/') && !path.startsWith('/_/') && path !== '/_') {
    const header = e.response.header();
    header.set(
      'Content-Security-Policy',
      [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "style-src 'self' 'unsafe-inline'",
        "script-src 'self'",
        "connect-src 'self'",
        "worker-src 'self'",
        "manifest-src 'self'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
      ].join('; '),
    );
    header.set('X-Content-Type-Options', 'nosniff');
    header.set('Referrer-Policy', 'same-origin');
  }
  return e.next();
});
