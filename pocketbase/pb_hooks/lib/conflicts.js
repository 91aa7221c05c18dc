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
/// A base may name the fields the history keeps (lib/home_history.js), and
/// values are compared as the history stores them: the history also says
/// who changed a field last. PocketBase keeps only `code`, `message` and
/// `params` of a field error in its answers (router/error.go's safe error
/// data), hence the params. Loaded with require() inside the handlers
/// (pooled VMs).

const CONFLICT_CODE = 'validation_conflict';
const BASE_KEY = '_base';
/** Characters of one base value, as JSON: above the longest field (a note, 4,500). */
const MAX_BASE_VALUE = 20000;

function history() {
  return require(`${__hooks}/lib/home_history.js`);
}

/** A base value as sent, in the shape the history stores the field: a flag as a boolean, anything else as text. */
function sentValue(value, field) {
  if (history().BOOL_FIELDS.indexOf(field) >= 0) return value === true;
  return value === null || value === undefined ? '' : String(value);
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
  const tracked = history().TRACKED_FIELDS[record.collection().name] || [];
  for (const name of Object.keys(base)) {
    if (tracked.indexOf(name) < 0)
      throw new BadRequestError(`_base names an unknown field: ${String(name).slice(0, 40)}.`);
    // A base is a value the field could hold; nothing a field holds is this long.
    if (JSON.stringify(base[name] === undefined ? null : base[name]).length > MAX_BASE_VALUE)
      throw new BadRequestError(`_base holds a value too long for ${name}.`);
  }
  return base;
}

/**
 * Refuses a write with 409 when a field of its base was changed by someone
 * else since: `saved` is the record as stored, `mineOf(field)` the value
 * the write gives the field (null for a delete). A field already holding
 * the value sent is no conflict.
 */
function refuseOvertaken(app, saved, base, mineOf) {
  const { storedValue, latestChange } = history();
  const errors = {};
  let count = 0;
  for (const field of Object.keys(base)) {
    const theirs = storedValue(saved, field);
    const was = sentValue(base[field], field);
    const mine = mineOf(field);
    if (theirs === was || theirs === mine) continue;
    const change = latestChange(app, saved.collection().name, saved.id, field);
    const by = change ? change.by_name : '';
    errors[field] = new ValidationError(
      CONFLICT_CODE,
      by ? `Changed by ${by} while you were offline` : 'Changed by someone else while you were offline',
    ).setParams({
      base: was,
      mine: mine,
      theirs: theirs,
      by_id: change ? change.by_id : '',
      by_name: by,
      at: change ? change.at : saved.getString('updated'),
    });
    count++;
  }
  if (count > 0) throw new ApiError(409, 'Someone else changed this since you started editing.', errors);
}

/** onRecordUpdateRequest: `e.record` holds the values sent, its original() the saved ones. */
function refuseStaleUpdate(e) {
  const base = readBase(e.requestInfo().body[BASE_KEY], e.record);
  if (base) refuseOvertaken(e.app, e.record.original(), base, (field) => history().storedValue(e.record, field));
}

/** onRecordDeleteRequest: a delete of a record changed since the device saw it waits for the person's word. */
function refuseStaleDelete(e) {
  const base = readBase(e.requestInfo().query[BASE_KEY], e.record);
  if (base) refuseOvertaken(e.app, e.record, base, () => null);
}

module.exports = {
  CONFLICT_CODE: CONFLICT_CODE,
  refuseStaleUpdate: refuseStaleUpdate,
  refuseStaleDelete: refuseStaleDelete,
};
