/// The server's half of "one set of rules" (docs/product.md#validation-limits): the
/// record rules compiled from src/domain/recordRules.ts (generated/
/// record_rules.js), applied to every record write as sent. Loaded with
/// require() inside the handler (pooled VMs).
///
/// Why a router middleware and no record request hooks: PocketBase converts
/// a body before its record hooks run, and a batch runs each request inside
/// the hooks of the one before, so deep in a batch every pooled VM is busy
/// and a record hook would load this 460 kB library afresh for each record
/// (50 ms each). The middleware runs once per HTTP request.

const RECORDS_PATH = /^\/api\/collections\/([^/]+)\/records(?:\/([^/]+))?\/?$/;

function rules() {
  return require(`${__hooks}/lib/generated/record_rules.js`);
}

/**
 * Which record write a method and path are: {collection, create} for a
 * create, an update or an upsert (PUT, batch only) of a collection with
 * rules, else null. The collection may be named by its id.
 */
function recordWrite(app, method, path) {
  const m = RECORDS_PATH.exec(path);
  if (!m) return null;
  const create = method === 'POST' && m[2] === undefined;
  const update = method === 'PATCH' && m[2] !== undefined;
  const upsert = method === 'PUT' && m[2] === undefined;
  if (!create && !update && !upsert) return null;
  let name;
  try {
    name = app.findCachedCollectionByNameOrId(decodeURIComponent(m[1])).name;
  } catch {
    return null; // PocketBase answers the unknown collection itself
  }
  return rules().RULED_COLLECTIONS.indexOf(name) >= 0
    ? { collection: name, create: create, id: m[2] === undefined ? '' : decodeURIComponent(m[2]) }
    : null;
}

/** The answer PocketBase gives a refused record write, with our field errors (as sentences, like PocketBase's). */
function refusal(create, errors) {
  const data = {};
  for (const field of Object.keys(errors))
    data[field] = { code: errors[field].code, message: sentence(errors[field].message) };
  return { status: 400, message: create ? 'Failed to create record.' : 'Failed to update record.', data: data };
}

function sentence(message) {
  return /[.!?]$/.test(message) ? message : `${message}.`;
}

function badRequest(e, message) {
  return e.json(400, { status: 400, message: message, data: {} });
}

/**
 * The body's values as sent. JSON keeps its types; form-data (an upload)
 * has only strings, except what the SDK puts in `@jsonPayload`, which is
 * JSON again. Returns {json, form} or {error}.
 */
function readBody(e, maxBytes) {
  const type = String(e.request.header.get('Content-Type') || '').toLowerCase();
  const length = e.request.contentLength;
  // `maxBytes` (0: none): the batch route applies PocketBase's body limit
  // only inside its handler, after this reads the body, so it is applied here.
  const tooLarge = { status: 413, error: 'The request body is too large.' };
  if (maxBytes > 0 && length > maxBytes) return tooLarge;
  if (type.indexOf('multipart/form-data') === 0 || type.indexOf('application/x-www-form-urlencoded') === 0) {
    if (maxBytes > 0 && length < 0) return { status: 411, error: 'The request body needs a Content-Length.' };
    try {
      // PocketBase reuses the parsed form (Request.MultipartForm / PostForm) later.
      if (type.indexOf('multipart/') === 0) e.request.parseMultipartForm(32 << 20);
      else e.request.parseForm();
    } catch {
      return { error: 'The form data could not be read.' };
    }
    const values = type.indexOf('multipart/') === 0 ? e.request.multipartForm.value : e.request.postForm;
    const form = {};
    const json = {};
    for (const key of Object.keys(values)) {
      const list = Array.from(values[key]);
      if (key !== '@jsonPayload') {
        form[key] = list.length === 1 ? list[0] : list;
        continue;
      }
      for (const payload of list) {
        let parsed;
        try {
          parsed = JSON.parse(payload);
        } catch {
          return { error: '@jsonPayload must be a JSON object.' };
        }
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
          return { error: '@jsonPayload must be a JSON object.' };
        Object.assign(json, parsed);
      }
    }
    return { json: json, form: form };
  }
  // Anything else is read as JSON, as PocketBase reads it.
  let raw;
  try {
    raw = maxBytes > 0 ? toString(e.request.body, maxBytes + 1) : toString(e.request.body);
  } catch {
    return tooLarge; // PocketBase's own limit stopped the read
  }
  if (maxBytes > 0 && raw.length > maxBytes) return tooLarge;
  // The router's body can be read again, but only from the start once
  // rewound (PocketBase 0.40 does not rewind at the end by itself).
  e.request.body.reread();
  if (raw.trim() === '') return { json: {}, form: {} };
  try {
    const parsed = JSON.parse(raw);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      return { error: 'The request body must be a JSON object.' };
    return { json: parsed, form: {} };
  } catch {
    return { error: 'The request body must be valid JSON.' };
  }
}

/** The record as the rules read it: text as text (a date as PocketBase writes it), booleans as booleans. */
function recordValues(record, kinds) {
  const values = {};
  for (const name of Object.keys(kinds)) {
    const kind = kinds[name];
    if (kind === 'file' || kind === 'secret' || name === 'id') continue;
    values[name] = kind === 'bool' ? record.getBool(name) : record.getString(name);
  }
  return values;
}

/**
 * An update's record as saved now, for the rules that join fields; null
 * when there is none or the writer may not see it (PocketBase then answers
 * 404, and this must not answer first about a record of someone else).
 */
function existingValues(e, write) {
  const r = rules();
  if (write.create || !write.id || !r.RECORD_RULES[write.collection].record) return null;
  let record;
  try {
    record = e.app.findRecordById(write.collection, write.id);
  } catch {
    return null;
  }
  const collection = record.collection();
  if (!e.app.canAccessRecord(record, e.requestInfo(), collection.viewRule)) return null;
  return recordValues(record, r.RECORD_RULES[write.collection].kinds);
}

/** Field errors of one create/update, or null. */
function writeErrors(e, write, body) {
  const errors = rules().checkWrite(write.collection, body, {
    create: write.create,
    existing: existingValues(e, write),
  });
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Router middleware: the raw body of every record write and batch, before
 * PocketBase converts it (123 to "123", a list to its last item, 'yes' to
 * true). A refused write answers 400 with field errors in PocketBase's
 * shape, and nothing reaches the database.
 */
function checkRawRequest(e) {
  const path = e.request.url.path;
  const method = e.request.method;
  if (method === 'POST' && (path === '/api/batch' || path === '/api/batch/')) return checkBatch(e);
  const write = recordWrite(e.app, method, path);
  if (!write) return e.next();
  // PocketBase's per-collection body limit is in place already (its
  // middleware runs before ours), so the read below stops at it.
  const body = readBody(e, 0);
  if (body.error)
    return body.status
      ? e.json(body.status, { status: body.status, message: body.error, data: {} })
      : badRequest(e, body.error);
  const errors = writeErrors(e, write, body);
  if (errors) return e.json(400, refusal(write.create, errors));
  return e.next();
}

/** A batch: each create/update/upsert inside it, with the batch failure shape PocketBase uses (the outbox reads the index). */
function checkBatch(e) {
  const body = readBody(e, e.app.settings().batch.maxBodySize || 128 << 20);
  if (body.error)
    return body.status
      ? e.json(body.status, { status: body.status, message: body.error, data: {} })
      : badRequest(e, body.error);
  const requests = body.json.requests;
  // PocketBase refuses a batch without a list of requests itself.
  if (!Array.isArray(requests)) return e.next();
  for (let i = 0; i < requests.length; i++) {
    const request = requests[i];
    if (!request || typeof request !== 'object') continue;
    const url = String(request.url || '');
    const write = recordWrite(e.app, String(request.method || '').toUpperCase(), url.split('?')[0]);
    if (!write) continue;
    const own = request.body;
    if (own !== undefined && (own === null || typeof own !== 'object' || Array.isArray(own))) {
      return e.json(
        400,
        batchRefusal(i, { status: 400, message: 'The request body must be a JSON object.', data: {} }),
      );
    }
    const errors = writeErrors(e, write, { json: own || {}, form: {} });
    if (errors) return e.json(400, batchRefusal(i, refusal(write.create, errors)));
  }
  return e.next();
}

function batchRefusal(index, response) {
  const requests = {};
  requests[String(index)] = { code: 'batch_request_failed', message: 'Batch request failed.', response: response };
  return { status: 400, message: 'Batch transaction failed.', data: { requests: requests } };
}

module.exports = { checkRawRequest: checkRawRequest };
