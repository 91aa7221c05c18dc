/// <reference path="../../.data/pb_data/types.d.ts" />
// The login page's demo hint (docs/product.md#login): the demo director's
// e-mail and password, only while demo mode is on. No sign-in needed, since
// the login page asks before anyone is signed in. Until the demo seed has
// finished it answers 503, so nobody is handed a sign-in that fails.

routerAdd('GET', '/api/scms/demo', (e) => {
  const { handle, fail } = require(`${__hooks}/lib/respond.js`);
  return handle(e, () => {
    const email = String($os.getenv('SCMS_DEMO_EMAIL') || '').trim();
    const password = String($os.getenv('SCMS_DEMO_PASSWORD') || '');
    if ($os.getenv('SCMS_DEMO') !== '1' || email === '' || password === '') throw fail(404, 'Demo mode is off');
    // The sign-in is handed out only once it works (the seed's last step).
    if (!require(`${__hooks}/lib/readiness.js`).demoSeeded(e.app)) {
      e.response.header().set('Retry-After', '1');
      throw fail(503, 'The demo data is being prepared. Try again in a moment.');
    }
    return e.json(200, { email: email, password: password });
  });
});
