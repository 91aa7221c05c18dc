/// Field-level concurrency for the homes directory (houses, residents,
/// phones), on the server's side. A device that edits offline sends only the
/// fields the person changed, and beside them, in `_base`, the values those
/// fields held when the person started editing (a delete sends the record's
/// values it saw, in the `_base` query parameter: a DELETE has no body).
///
/// - A field whose saved value is still its base: nobody else changed it,
///   the write goes through; changes to fields it does not send are kept
///   (the merge is field by field).
/// - A field someone changed since, to a value other than the one sent: a
///   conflict. The whole request (the whole batch) is refused with 409 and
///   nothing is written. Each conflicting field answers as a field error
///   with code `validation_conflict` whose params carry the base, the value
///   sent, the value saved now and who saved it when (from the history,
///   lib/home_history.js), so the device can show both values.
/// - A write without `_base` (an app version from before field-level
///   writes, still in a phone's outbox when the app updated) is applied as
///   sent, as it always was.
///
/// PocketBase keeps only `code`, `message` and `params` of a field error in
/// its answers (router/error.go's safe error data), hence the params.
/// Loaded with require() inside the handlers (pooled VMs).

const CONFLICT_CODE = 'validation_conflict';
const BASE_KEY = '_base';
/** Characters of one base value, as JSON: above the longest field (a note, 4,500). */
const MAX_BASE_VALUE = 20000;

/** A value as the rules compare it: text as text, a boolean as a boolean, a file list as a list of names. */
function savedValue(record, field) {
  const kind = field.type();
  const name = field.getName();
  if (kind === 'bool') return record.getBool(name);
  if (kind === 'number') return record.getFloat(name);
  if (kind === 'file' || (kind === 'select' && field.maxSelect > 1) || (kind === 'relation' && field.maxSelect > 1)) {
    const names = record.getStringSlice(name);
    return field.maxSelect > 1 ? names : names.length > 0 ? names[0] : '';
  }
  if (kind === 'json') return JSON.stringify(record.get(name));
  return record.getString(name);
}

/** A base value as sent, in the shape savedValue gives (null/undefined: the field's empty value). */
function sentValue(value, field) {
  const kind = field.type();
  const many = field.maxSelect > 1;
  if (kind === 'bool') return value === true;
  if (kind === 'number') return value === null || value === undefined || value === '' ? 0 : Number(value);
  if (kind === 'json') return JSON.stringify(value === undefined ? null : value);
  if (many) return Array.isArray(value) ? value.map(String) : value ? [String(value)] : [];
  if (Array.isArray(value)) return value.length > 0 ? String(value[0]) : '';
  return value === null || value === undefined ? '' : String(value);
}

function same(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/** The `_base` object, or null when none was sent; throws 400 when it is not one. */
function readBase(raw, record) {
  if (raw === undefined || raw === null || raw === '') return null;
  let base = raw;
  if (typeof raw === 'string') {
    try {
      base = JSON.parse(raw);
    } catch {
      base = undefined;
    }
  }
  if (!base || typeof base !== 'object' || Array.isArray(base))
    throw new BadRequestError('_base must be an object of the values the change started from.');
  const fields = record.collection().fields;
  for (const name of Object.keys(base)) {
    const field = fields.getByName(name);
    if (!field || field.getHidden() || name === 'id' || field.type() === 'autodate' || field.type() === 'password')
      throw new BadRequestError(`_base names an unknown field: ${String(name).slice(0, 40)}.`);
    // A base is a value the field could hold; nothing a field holds is this long.
    if (JSON.stringify(base[name] === undefined ? null : base[name]).length > MAX_BASE_VALUE)
      throw new BadRequestError(`_base holds a value too long for ${name}.`);
  }
  return base;
}

/** Who last changed a field of a record and when, from the history (null when it has no row of it). */
function lastChange(app, record, field) {
  try {
    return require(`${__hooks}/lib/home_history.js`).latestChange(app, record.collection().name, record.id, field);
  } catch {
    return null;
  }
}

function conflictError(app, record, name, base, mine, theirs) {
  const change = lastChange(app, record, name);
  const by = change ? change.by_name : '';
  const message = by ? `Changed by ${by} while you were offline` : 'Changed by someone else while you were offline';
  return new ValidationError(CONFLICT_CODE, message).setParams({
    base: base,
    mine: mine,
    theirs: theirs,
    by_id: change ? change.by_id : '',
    by_name: by,
    at: change ? change.at : record.getString('updated'),
  });
}

/**
 * onRecordUpdateRequest: `e.record` holds the values sent, its original()
 * the saved ones. Refuses the request with 409 when a field it changes was
 * changed by someone else since its base.
 */
function refuseStaleUpdate(e) {
  const body = e.requestInfo().body;
  const base = readBase(body[BASE_KEY], e.record);
  if (!base) return;
  const saved = e.record.original();
  const fields = e.record.collection().fields;
  const errors = {};
  let count = 0;
  for (const name of Object.keys(base)) {
    const field = fields.getByName(name);
    const theirs = savedValue(saved, field);
    const mine = savedValue(e.record, field);
    if (same(theirs, sentValue(base[name], field)) || same(theirs, mine)) continue;
    errors[name] = conflictError(e.app, saved, name, sentValue(base[name], field), mine, theirs);
    count++;
  }
  if (count > 0) throw new ApiError(409, 'Someone else changed this since you started editing.', errors);
}

/**
 * onRecordDeleteRequest: a delete of a record someone changed since the
 * device saw it is refused with 409 (the person decides whether it still
 * goes), naming the changed fields; "mine" is null (deleted).
 */
function refuseStaleDelete(e) {
  const base = readBase(e.requestInfo().query[BASE_KEY], e.record);
  if (!base) return;
  const fields = e.record.collection().fields;
  const errors = {};
  let count = 0;
  for (const name of Object.keys(base)) {
    const field = fields.getByName(name);
    const theirs = savedValue(e.record, field);
    if (same(theirs, sentValue(base[name], field))) continue;
    errors[name] = conflictError(e.app, e.record, name, sentValue(base[name], field), null, theirs);
    count++;
  }
  if (count > 0) throw new ApiError(409, 'Someone else changed this since you started editing.', errors);
}

module.exports = {
  CONFLICT_CODE: CONFLICT_CODE,
  refuseStaleUpdate: refuseStaleUpdate,
  refuseStaleDelete: refuseStaleDelete,
};
