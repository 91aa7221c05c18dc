/// <reference path="../../.data/pb_data/types.d.ts" />
// Own passwords, director resets, the login page's reset options, and
// refusals that do not tell what exists elsewhere. The logic is in
// lib/passwords.js; handlers require it (pooled VMs).

// A user a director creates signs in first with the password the director
// was shown (users.pb.js): they must choose their own before anything else.
// The e-mail is checked first, so a taken address anywhere gets one answer.
onRecordCreateRequest((e) => {
  if (e.hasSuperuserAuth()) return e.next();
  const passwords = require(`${__hooks}/lib/passwords.js`);
  passwords.checkNewUserEmail(e);
  passwords.markTemporaryPassword(e.record);
  return e.next();
}, 'users');

// Every collection: an id chosen by the client that some record already has
// is refused in record_ids.pb.js (with the tombstone check, one handler).

onRecordUpdateRequest((e) => {
  if (e.hasSuperuserAuth()) return e.next();
  require(`${__hooks}/lib/passwords.js`).checkUserUpdate(e);
  return e.next();
}, 'users');

// A password set through the reset e-mail is the user's own.
onRecordConfirmPasswordResetRequest((e) => {
  require(`${__hooks}/lib/passwords.js`).clearTemporaryPassword(e.record);
  return e.next();
}, 'users');

// Until the temporary password is replaced, it opens nothing but the change
// itself; once expired, not even that (lib/passwords.js). Priority -10: after
// PocketBase's own middlewares (the token is loaded at -1020, the rate limit
// at -1000), before the other hooks' (0), so a refused session learns
// nothing from them (the record rules' messages, say).
routerUse(
  new Middleware((e) => {
    // Most requests (every guest's, the app's files) need nothing loaded.
    if (!e.auth || e.auth.getBool('must_change_password') !== true) return e.next();
    return require(`${__hooks}/lib/passwords.js`).temporaryPasswordGate(e);
  }, -10),
);

onRecordAuthWithPasswordRequest((e) => {
  if (e.record) require(`${__hooks}/lib/passwords.js`).checkTemporaryPasswordSignIn(e);
  return e.next();
}, 'users');

routerAdd('POST', '/api/scms/users/{id}/reset-password', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/passwords.js`).resetPassword);
});

// The first password of one's own, without the temporary one again (lib/passwords.js firstPassword).
routerAdd('POST', '/api/scms/users/{id}/first-password', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/passwords.js`).firstPassword);
});

// Every save, a superuser's too: the flag turned on voids the sessions made before it.
onRecordUpdate((e) => {
  require(`${__hooks}/lib/passwords.js`).refreshTokenKeyWhenFlagged(e.record);
  return e.next();
}, 'users');

routerAdd('GET', '/api/scms/auth-options', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/passwords.js`).authOptions);
});

// Mail settings from the environment, once the app (and its settings) is loaded.
onBootstrap((e) => {
  e.next();
  require(`${__hooks}/lib/passwords.js`).applyMailSettings(e.app);
});
