/// <reference path="../../.data/pb_data/types.d.ts" />
// Security headers for the app's own pages (the PWA served from publicDir).
// PocketBase's admin UI (/_/, which needs inline scripts) keeps PocketBase's
// defaults. API answers carry one user's data: no cache (the browser's, a
// proxy's, a shared device's) may keep them; the app's offline copy is its
// own IndexedDB mirror. Files (house images and report photos, every one a
// protected file) are kept by the service worker alone, in the
// signed-in user's own cache that log out deletes: the browser's HTTP cache,
// which no log out empties, keeps none (PocketBase would allow 30 days).
// The health check may be cached.

routerUse((e) => {
  const path = e.request.url.path;
  if (path.startsWith('/api/') && path !== '/api/health') e.response.header().set('Cache-Control', 'no-store');
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
