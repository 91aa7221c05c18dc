/// <reference path="../../.data/pb_data/types.d.ts" />
// /api/health answers 503 until the server is usable (lib/readiness.js):
// `npm start`, the tests, a reverse proxy and a systemd unit all wait on it,
// so "healthy" must mean a sign-in works, not merely that the port is open.

routerUse((e) => {
  if (e.request.url.path !== '/api/health' || (e.request.method !== 'GET' && e.request.method !== 'HEAD'))
    return e.next();
  const reason = require(`${__hooks}/lib/readiness.js`).notReadyReason(e.app);
  if (reason !== '') {
    e.response.header().set('Retry-After', '1');
    return e.json(503, { code: 503, message: `Starting: ${reason}`, data: {} });
  }
  return e.next();
});
