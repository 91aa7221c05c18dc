/// Request reading and response writing shared by every /api/scms/ route.
///
/// Every failure answers `{error: true, code, message}` (plus `data` with
/// per-field messages where useful), the shape the client's failure-message
/// builder reads (docs/product.md#messages). Loaded with require() inside each handler: hook
/// handlers run in pooled VMs and cannot see a file's top-level variables.

/** A failure for `throw`: `handle` turns it into the failure JSON. */
function fail(code, message, data) {
  // A plain marked object, not a class: each pooled VM has its own copy of
  // this module, so instanceof across modules would not be reliable.
  return { isHttpFailure: true, code: code, message: message, data: data };
}

/** Bytes of `str` in UTF-8 (what the body limit counts). */
function utf8Length(str) {
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4; // a surrogate pair is one 4-byte character
      i++;
    } else n += 3;
  }
  return n;
}

/** Writes a failure. `data` maps a field name to `{code, message}`. */
function sendFailure(e, code, message, data) {
  const body = { error: true, code: code, message: message };
  if (data) body.data = data;
  return e.json(code, body);
}

/**
 * Runs `handler(e)`; an HttpFailure it throws becomes its JSON answer, any
 * other error a 500 (logged, with a generic message: internal details are not
 * the client's business).
 */
function handle(e, handler) {
  try {
    return handler(e);
  } catch (err) {
    if (err && err.isHttpFailure === true) return sendFailure(e, err.code, err.message, err.data);
    e.app.logger().error('scms route failed', 'path', e.request.url.path, 'error', String(err));
    return sendFailure(e, 500, 'An error occurred on the server. Please try again.');
  }
}

/** The signed-in staff member (a `users` record), or a 401 failure. */
function requireStaff(e) {
  const auth = e.auth;
  if (!auth || auth.collection().name !== 'users') {
    throw fail(401, 'You must be signed in to do this.');
  }
  return auth;
}

/**
 * The raw request body as a string, at most `maxBytes` (UTF-8) long.
 * Read by hand rather than through e.requestInfo() so that malformed JSON is
 * our 400 and form values keep their exact text (PocketBase's form binder
 * turns "123" into a number, which would break signature checks).
 */
function readBody(e, maxBytes) {
  const declared = e.request.contentLength;
  if (declared > maxBytes) throw fail(413, 'The request body is too large.');
  // One byte more than allowed, so that a body without Content-Length that
  // is too long is still noticed.
  const raw = toString(e.request.body, maxBytes + 1);
  if (utf8Length(raw) > maxBytes) throw fail(413, 'The request body is too large.');
  return raw;
}

/** The JSON object in the body, or a 400 failure. */
function readJsonObject(e, maxBytes) {
  const raw = readBody(e, maxBytes);
  let value;
  try {
    value = JSON.parse(raw);
  } catch {
    throw fail(400, 'The request body must be valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw fail(400, 'The request body must be a JSON object.');
  }
  return value;
}

function decodeFormPart(part) {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}

/**
 * An application/x-www-form-urlencoded body as name → value (a string, or a
 * list of strings for a repeated name). Malformed percent-encoding is a 400.
 */
function readForm(e, maxBytes) {
  const raw = readBody(e, maxBytes);
  const params = {};
  if (raw === '') return params;
  raw.split('&').forEach(function (pair) {
    if (pair === '') return;
    const eq = pair.indexOf('=');
    let name;
    let value;
    try {
      name = decodeFormPart(eq < 0 ? pair : pair.slice(0, eq));
      value = eq < 0 ? '' : decodeFormPart(pair.slice(eq + 1));
    } catch {
      throw fail(400, 'The form body is not correctly encoded.');
    }
    if (!Object.prototype.hasOwnProperty.call(params, name)) params[name] = value;
    else if (Array.isArray(params[name])) params[name].push(value);
    else params[name] = [params[name], value];
  });
  return params;
}

module.exports = {
  fail: fail,
  sendFailure: sendFailure,
  handle: handle,
  requireStaff: requireStaff,
  readBody: readBody,
  readJsonObject: readJsonObject,
  readForm: readForm,
  utf8Length: utf8Length,
};
