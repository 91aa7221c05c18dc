/// Own passwords, resets and the refusals that must not tell what exists
/// (docs/product.md#login). Loaded with require() inside each handler
/// (pooled VMs do not share a file's top-level scope).

/** Fields only the server writes. */
const SERVER_FIELDS = ['must_change_password', 'temporary_password_expires'];

/** One answer for every refused e-mail, whether it is taken (in any community) or not. */
const EMAIL_REFUSED = 'This e-mail cannot be used.';
/** One answer for a client-chosen id that cannot be used, whoever holds it. */
const ID_REFUSED = 'This id cannot be used.';

/** The JSON body as sent, for the keys PocketBase does not keep on the record (oldPassword). */
function bodyOf(e) {
  const body = e.requestInfo().body;
  return body && typeof body === 'object' ? body : {};
}

function has(body, key) {
  return Object.prototype.hasOwnProperty.call(body, key);
}

/** A 400 with field errors, in PocketBase's own shape (what the app's message builder reads). */
function fieldRefusal(field, code, message) {
  const data = {};
  data[field] = new ValidationError(code, message);
  return new BadRequestError('Failed to save the record.', data);
}

/** Is `email` the address of any user (any community), other than `exceptId`? Case-insensitive, as PocketBase's unique index is. */
function emailTaken(app, email, exceptId) {
  if (!email) return false;
  const found = arrayOf(new DynamicModel({ id: '' }));
  app
    .db()
    .newQuery('SELECT id FROM users WHERE email = {:email} COLLATE NOCASE AND id != {:except} LIMIT 1')
    .bind({ email: String(email), except: exceptId || '' })
    .all(found);
  return found.length > 0;
}

/**
 * Refuses a new user's e-mail that is already someone's, with the same
 * answer wherever that someone is: PocketBase's own `validation_not_unique`
 * would tell a director that the address is a user of another community.
 */
function checkNewUserEmail(e) {
  if (emailTaken(e.app, e.record.email(), '')) throw fieldRefusal('email', 'validation_invalid_email', EMAIL_REFUSED);
}

/** The same for an e-mail changed by an update. */
function checkChangedEmail(e) {
  const email = e.record.email();
  if (email === e.record.original().email()) return;
  if (emailTaken(e.app, email, e.record.id)) throw fieldRefusal('email', 'validation_invalid_email', EMAIL_REFUSED);
}

/**
 * A create with a client-chosen id (the outbox's) that a record already has,
 * in this community or another: refused without saying so. The outbox never
 * reads this message: after any 400 it asks whether its own record is there.
 */
function checkChosenId(e) {
  const body = bodyOf(e);
  const id = has(body, 'id') ? body.id : '';
  if (typeof id !== 'string' || id === '') return;
  let existing;
  try {
    existing = e.app.findRecordById(e.collection.id, id);
  } catch {
    existing = null;
  }
  if (existing) throw fieldRefusal('id', 'validation_invalid_id', ID_REFUSED);
}

/** Fields whose value changes with a password change, or on every save. */
function changesWithPassword(field) {
  const type = field.type();
  return type === 'password' || type === 'autodate' || field.name === 'tokenKey';
}

/** Names of the fields this update changes, as loaded onto the record (field modifiers and uploads included). */
function changedFields(record) {
  const original = record.original();
  const changed = [];
  record.collection().fields.forEach(function (field) {
    if (changesWithPassword(field)) return;
    const before = JSON.stringify(original.get(field.name));
    const after = JSON.stringify(record.get(field.name));
    if (before !== after) changed.push(field.name);
  });
  return changed;
}

/** The shared rule and words (src/domain/temporaryPassword.ts). */
function rule() {
  return require(`${__hooks}/lib/generated/temporary_password.js`);
}

/** A new temporary password: easy to read out and to type (src/domain/temporaryPassword.ts), from PocketBase's secure random source. */
function newTemporaryPassword() {
  return rule().newTemporaryPassword((length, alphabet) => $security.randomStringWithAlphabet(length, alphabet));
}

/**
 * Gives `record` a temporary password's state: it must be changed, and it
 * stops working after the configured hours. The caller sets the password.
 */
function markTemporaryPassword(record) {
  const temporary = rule();
  // The start scripts refuse a bad SCMS_TEMPORARY_PASSWORD_HOURS; a server started otherwise falls back.
  let hours;
  try {
    hours = temporary.temporaryPasswordHours($os.getenv('SCMS_TEMPORARY_PASSWORD_HOURS'));
  } catch {
    hours = temporary.DEFAULT_TEMPORARY_PASSWORD_HOURS;
  }
  record.set('must_change_password', true);
  record.set('temporary_password_expires', temporary.temporaryPasswordExpiry(Date.now(), hours));
}

/** The password is now the user's own: nothing to change, nothing to expire. */
function clearTemporaryPassword(record) {
  record.set('must_change_password', false);
  record.set('temporary_password_expires', '');
}

/** A user whose temporary password is past its time (never for a password of their own). */
function temporaryPasswordExpired(record) {
  const state = rule().temporaryPasswordState(
    record.getBool('must_change_password'),
    record.getString('temporary_password_expires'),
    Date.now(),
  );
  return state === 'expired';
}

/**
 * Any update of a user by someone signed in (not a superuser):
 * - must_change_password and temporary_password_expires are the server's alone;
 * - an own password change (a request with oldPassword, open to everyone by
 *   the update rule) changes the password only, and clears the flag: the
 *   password is now one only this user knows.
 * PocketBase itself checks oldPassword against the current password and
 * requires it from anyone but a superuser; a password sent for someone else
 * is refused even with the right old one (the reset route is for that).
 */
function checkUserUpdate(e) {
  const changed = changedFields(e.record);
  const serverField = SERVER_FIELDS.find((field) => changed.indexOf(field) !== -1);
  if (serverField) throw fieldRefusal(serverField, 'validation_not_allowed', 'This field is set by the server.');
  const body = bodyOf(e);
  const ownPasswordChange = e.auth && e.auth.id === e.record.id && has(body, 'oldPassword');
  // Knowing a colleague's password (the temporary one a director was shown)
  // does not let anyone set the next one: that is the reset route's job.
  const passwordSent = has(body, 'password') || has(body, 'oldPassword') || has(body, 'passwordConfirm');
  if (passwordSent && !ownPasswordChange)
    throw new ForbiddenError('Only the user can change their password; a director resets it.');
  if (ownPasswordChange) {
    if (changed.length > 0) throw new ForbiddenError('Only your password can be changed here.');
    // The flag is cleared only for a new password: the temporary one, kept,
    // is still one a director has seen.
    if (typeof body.password !== 'string' || body.password === '') {
      throw fieldRefusal('password', 'validation_required', 'Cannot be blank.');
    }
    if (e.record.original().validatePassword(body.password)) {
      throw fieldRefusal('password', 'validation_same_password', 'Choose a password different from the current one.');
    }
    clearTemporaryPassword(e.record);
  }
  if (changed.indexOf('email') !== -1) checkChangedEmail(e);
}

/** A director resets a colleague's password: a new temporary one, shown once; the old sessions end. */
function resetPassword(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  const auth = respond.requireStaff(e);
  if (auth.getString('type') !== 'director') throw respond.fail(403, 'Only a director can reset a password.');
  let user;
  try {
    user = e.app.findRecordById('users', e.request.pathValue('id'));
  } catch {
    user = null;
  }
  // Another community's user is answered as if there were none.
  if (!user || user.getString('community') !== auth.getString('community'))
    throw respond.fail(404, "The requested resource wasn't found.");
  if (user.id === auth.id) throw respond.fail(400, 'Use Change password to change your own password.');
  const temporaryPassword = newTemporaryPassword();
  // A new password also gives the user a new token key, which voids every
  // token issued before (PocketBase signs tokens with it).
  user.setPassword(temporaryPassword);
  markTemporaryPassword(user);
  e.app.save(user);
  return e.json(200, {
    temporary_password: temporaryPassword,
    temporary_password_expires: user.getString('temporary_password_expires'),
  });
}

/** The path of the first-password route for user `id` (passwords.pb.js). */
function firstPasswordPath(id) {
  return `/api/scms/users/${id}/first-password`;
}

/** The body of a first password: at most this many bytes (two passwords of 24 characters and their names fit many times over). */
const FIRST_PASSWORD_MAX_BYTES = 1024;

/**
 * A user signed in with a temporary password chooses their own without
 * typing the temporary one again: the session proves it. Every token of a
 * user whose flag is set was made after the temporary password was set
 * (setting it, by a director or by hand, voids the tokens made before:
 * refreshTokenKeyWhenFlagged), so only a sign-in with the temporary password
 * (or its renewal) gets here. Anyone else is refused and nothing changes:
 * another user's id (whichever community, or none), a password of one's own
 * (the current one is needed: PocketBase's own change), an expired temporary
 * password (the gate's 401), a body that is not two new passwords of the right length.
 * The new password voids every token of the old one, this one too: the app
 * signs in again with it.
 */
function firstPassword(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  const auth = respond.requireStaff(e);
  if (e.request.pathValue('id') !== auth.id) throw respond.fail(403, 'You can only choose your own password.');
  // The record as stored now, not as the token loaded it.
  const user = e.app.findRecordById('users', auth.id);
  const state = rule().temporaryPasswordState(
    user.getBool('must_change_password'),
    user.getString('temporary_password_expires'),
    Date.now(),
  );
  if (state === 'own') throw respond.fail(403, 'Your password is your own: enter the current one to change it.');
  if (state === 'expired') throw respond.fail(401, rule().TEMPORARY_PASSWORD_EXPIRED);
  const body = respond.readJsonObject(e, FIRST_PASSWORD_MAX_BYTES);
  const refusals = rule().firstPasswordRefusal(body);
  if (refusals) throw respond.fail(400, 'Failed to change the password.', refusals);
  if (user.validatePassword(body.password)) {
    throw respond.fail(400, 'Failed to change the password.', {
      password: { code: 'validation_same_password', message: 'Choose a password different from the current one.' },
    });
  }
  user.setPassword(body.password);
  clearTemporaryPassword(user);
  try {
    e.app.save(user);
  } catch (err) {
    // The field's own limits (a length counted otherwise, say): refused, nothing saved.
    throw respond.fail(400, 'Failed to change the password.', {
      password: { code: 'validation_invalid_value', message: String(err && err.message ? err.message : err) },
    });
  }
  return e.noContent(204);
}

/**
 * The flag turned on by hand (a superuser in the admin UI) voids the user's
 * tokens, as a new temporary password does: a session made before it never
 * gets to choose a password without the current one (firstPassword).
 */
function refreshTokenKeyWhenFlagged(record) {
  if (record.getBool('must_change_password') && !record.original().getBool('must_change_password')) {
    record.refreshTokenKey();
  }
}

/** Requests that are no one's in particular: signing in (anyone, on a shared phone), the health check, the app's files. */
function openToAnyone(method, path) {
  if (!path.startsWith('/api/')) return true;
  if (path === '/api/health' || path === '/api/scms/auth-options' || path === '/api/scms/demo') return true;
  const auth =
    /^\/api\/collections\/[^/]+\/(auth-with-password|auth-methods|request-password-reset|confirm-password-reset)$/;
  return auth.test(path) && (method === 'POST' || method === 'GET');
}

/** What a user still on a temporary password may do: renew the session, read their record, change the password (with or without the temporary one). */
function allowedWhileTemporary(method, path, user) {
  const collection = user.collection();
  for (const name of [collection.name, collection.id]) {
    const base = `/api/collections/${name}/`;
    if (path === `${base}auth-refresh` && method === 'POST') return true;
    if (path === `${base}records/${user.id}` && (method === 'GET' || method === 'PATCH')) return true;
  }
  return path === firstPasswordPath(user.id) && method === 'POST';
}

/**
 * The server's side of "a temporary password must be changed at first
 * sign-in" (docs/product.md#login): the app shows nothing else until it is done, and
 * this refuses everything else to any other client, so the password a
 * director saw opens no community data. Past its expiry the session ends
 * (401: the app asks to sign in again, and the sign-in says why). Called
 * (passwords.pb.js) only for a signed-in user whose must_change_password is set.
 */
function temporaryPasswordGate(e) {
  const user = e.auth;
  const method = e.request.method;
  const path = e.request.url.path;
  if (openToAnyone(method, path)) return e.next();
  const temporary = rule();
  if (temporaryPasswordExpired(user))
    return e.json(401, { status: 401, message: temporary.TEMPORARY_PASSWORD_EXPIRED, data: {} });
  if (allowedWhileTemporary(method, path, user)) return e.next();
  return e.json(403, { status: 403, message: temporary.PASSWORD_CHANGE_REQUIRED, data: {} });
}

/**
 * A sign-in with an expired temporary password: refused with its own words,
 * but only when the password is right (a wrong one gets PocketBase's usual
 * answer, so nothing is told to someone who does not know it).
 */
function checkTemporaryPasswordSignIn(e) {
  const user = e.record;
  if (!temporaryPasswordExpired(user) || !user.validatePassword(e.password)) return;
  const temporary = rule();
  throw fieldRefusal('password', temporary.TEMPORARY_PASSWORD_EXPIRED_CODE, temporary.TEMPORARY_PASSWORD_EXPIRED);
}

/** What the login page may offer: the reset e-mail only when the server can send mail. */
function authOptions(e) {
  return e.json(200, { password_reset_email: e.app.settings().smtp.enabled === true });
}

/**
 * Mail settings from the environment (SMTP_HOST and its companions), so that
 * nothing is configured by hand in the admin UI. Without SMTP_HOST the saved
 * settings stay as they are.
 */
function applyMailSettings(app) {
  const host = String($os.getenv('SMTP_HOST') || '').trim();
  if (host === '') return;
  const settings = app.settings();
  settings.smtp.enabled = true;
  settings.smtp.host = host;
  settings.smtp.port = Number($os.getenv('SMTP_PORT') || 587);
  settings.smtp.username = String($os.getenv('SMTP_USERNAME') || '');
  settings.smtp.password = String($os.getenv('SMTP_PASSWORD') || '');
  settings.smtp.tls = $os.getenv('SMTP_TLS') === '1';
  settings.meta.senderAddress = String($os.getenv('SMTP_SENDER') || `no-reply@${host}`);
  settings.meta.senderName = 'SCMS';
  const publicUrl = String($os.getenv('SCMS_PUBLIC_URL') || '').trim();
  if (publicUrl !== '') settings.meta.appURL = publicUrl;
  app.save(settings);
}

module.exports = {
  newTemporaryPassword: newTemporaryPassword,
  firstPassword: firstPassword,
  refreshTokenKeyWhenFlagged: refreshTokenKeyWhenFlagged,
  markTemporaryPassword: markTemporaryPassword,
  clearTemporaryPassword: clearTemporaryPassword,
  temporaryPasswordGate: temporaryPasswordGate,
  checkTemporaryPasswordSignIn: checkTemporaryPasswordSignIn,
  EMAIL_REFUSED: EMAIL_REFUSED,
  ID_REFUSED: ID_REFUSED,
  checkNewUserEmail: checkNewUserEmail,
  checkChosenId: checkChosenId,
  checkUserUpdate: checkUserUpdate,
  resetPassword: resetPassword,
  authOptions: authOptions,
  applyMailSettings: applyMailSettings,
};
