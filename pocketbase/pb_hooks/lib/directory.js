/// The directory (src/domain/directory.ts, docs/scaling.md "Several servers"):
/// which server holds an account. Loaded with require() inside each handler.

/**
 * POST /api/scms/directory on a single server: every account is on this
 * server (''), whoever asks. The body is read by the same rule as the
 * directory service's, so a bad one gets the same 400 from either.
 */
function answerDirectory(e) {
  const { fail, readBody } = require(`${__hooks}/lib/respond.js`);
  const rules = require(`${__hooks}/lib/generated/directory.js`);
  const reading = rules.readDirectoryRequest(readBody(e, rules.DIRECTORY_BODY_LIMIT));
  if (reading.problem !== undefined) throw fail(400, reading.problem);
  return e.json(200, { server: '' });
}

/** The directory service's key (SCMS_DIRECTORY_KEY), or '' when this server has none (the lookup is off). */
function directoryKey() {
  const key = String($os.getenv('SCMS_DIRECTORY_KEY') || '');
  return key.length >= 32 ? key : '';
}

/**
 * GET /api/scms/directory/lookup?email=… for the directory service in front
 * of several servers: the community id of the account with that e-mail on
 * this server, or null. Only with the service's key (a bearer token); to
 * anyone else, and on a server without a key, the route does not exist.
 */
function lookUpAccount(e) {
  const { fail } = require(`${__hooks}/lib/respond.js`);
  const key = directoryKey();
  const given = String(e.request.header.get('Authorization') || '');
  if (key === '' || !$security.equal(given, 'Bearer ' + key)) throw fail(404, 'The requested resource was not found.');
  const email = String(e.request.url.query().get('email') || '')
    .trim()
    .toLowerCase();
  if (email === '' || email.length > 254) throw fail(400, 'Not a valid email');
  let community = null;
  try {
    community = e.app.findAuthRecordByEmail('users', email).getString('community') || null;
  } catch {
    // No such account on this server.
  }
  return e.json(200, { community: community });
}

module.exports = { answerDirectory: answerDirectory, lookUpAccount: lookUpAccount };
