/// <reference path="../../.data/pb_data/types.d.ts" />
// Security headers for the app's own pages (the PWA served from publicDir).
// PocketBase's admin UI (/_/, which needs inline scripts) keeps PocketBase's
// defaults. API answers carry one user's data: no cache (the browser's, a
// proxy's, a shared device's) may keep them; the app's offline copy is its
// own IndexedDB mirror. Files (house images, which the service worker keeps
// for offline use) and the health check may be cached.

routerUse((e) => {
  const path = e.request.url.path;
  if (path.startsWith('/api/')) {
    const isFile = path.startsWith('/api/files/') && path !== '/api/files/token';
    if (!isFile && path !== '/api/health') e.response.header().set('Cache-Control', 'no-store');
  }
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
