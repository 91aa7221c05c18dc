/// Shape checks for the body of POST /api/scms/call-resident (docs/product.md#the-servers-routes:
/// `{h_id, concerns: [{id, name, selected}]}`). Pure: throws the failures of
/// respond.js, reads nothing from the database.

const MAX_CONCERNS_PER_CALL = 3;
// The client may send the whole list with `selected` flags; this only bounds
// the work one request can cause.
const MAX_ENTRIES = 100;
const MAX_NAME_LENGTH = 100;
const ID_PATTERN = /^[a-z0-9]{15}$/;

function fieldError(message) {
  return { code: 'validation_invalid_value', message: message };
}

/**
 * → {houseId, concernIds, overrideQuietHours} with 1–3 distinct concern ids,
 * in the order sent.
 * Entries with `selected: false` are ignored; a missing `selected` counts as
 * chosen.
 */
function validateCallRequest(body) {
  const { fail } = require(`${__hooks}/lib/respond.js`);
  const invalid = function (field, message) {
    const data = {};
    data[field] = fieldError(message);
    return fail(400, message, data);
  };

  const houseId = body.h_id;
  if (typeof houseId !== 'string' || !ID_PATTERN.test(houseId)) {
    throw invalid('h_id', 'h_id must be the id of a home.');
  }
  const concerns = body.concerns;
  if (!Array.isArray(concerns)) throw invalid('concerns', 'concerns must be a list.');
  if (concerns.length > MAX_ENTRIES) throw invalid('concerns', 'concerns has too many entries.');

  const chosen = [];
  for (let i = 0; i < concerns.length; i++) {
    const entry = concerns[i];
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw invalid('concerns', 'Each concern must be an object with an id.');
    }
    if (typeof entry.id !== 'string' || !ID_PATTERN.test(entry.id)) {
      throw invalid('concerns', 'Each concern must have the id of a concern.');
    }
    if (entry.name !== undefined && (typeof entry.name !== 'string' || entry.name.length > MAX_NAME_LENGTH)) {
      throw invalid('concerns', 'A concern name must be text of at most ' + MAX_NAME_LENGTH + ' characters.');
    }
    if (entry.selected !== undefined && typeof entry.selected !== 'boolean') {
      throw invalid('concerns', 'A concern\'s "selected" must be true or false.');
    }
    if (entry.selected !== false) chosen.push(entry.id);
  }

  if (chosen.length === 0) throw invalid('concerns', 'Select at least one concern.');
  if (chosen.length > MAX_CONCERNS_PER_CALL) {
    // The app's words for it, from src/domain/callScript.ts (lib/generated/).
    throw invalid('concerns', require(`${__hooks}/lib/generated/call_script.js`).LIMIT_EXCEEDED_MESSAGE);
  }
  const distinct = chosen.filter(function (id, i) {
    return chosen.indexOf(id) === i;
  });
  if (distinct.length !== chosen.length) throw invalid('concerns', 'Each concern can be selected only once.');

  // Placing a call in the community's quiet hours needs the caller's explicit yes.
  const override = body.override_quiet_hours;
  if (override !== undefined && typeof override !== 'boolean')
    throw invalid('override_quiet_hours', 'override_quiet_hours must be true or false.');

  return { houseId: houseId, concernIds: chosen, overrideQuietHours: override === true };
}

module.exports = { validateCallRequest: validateCallRequest };
