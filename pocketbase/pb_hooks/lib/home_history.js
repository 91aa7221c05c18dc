/// The history of every change of a home, its residents and its phones
/// (migration 1765100000_home_changes.js; the handlers are in
/// home_history.pb.js). Loaded with require() inside each handler: pooled
/// VMs do not share a file's scope.
///
/// Rows are saved with the request's app (`e.app`): inside a batch that is
/// the batch's transaction, so a batch that fails leaves no history of the
/// writes it took back.

/**
 * The fields whose changes are kept, per collection: the home's directory
 * (what people type into the home form). Left out on purpose:
 * houses.house_check_last_date (set by every house check: activity, shown
 * by the reports) and houses.pending_call_concerns_ids (set by the call
 * routes: the call history shows it), and files other than the photo.
 */
const TRACKED_FIELDS = {
  houses: [
    'address',
    'apt',
    'city',
    'state',
    'zip',
    'note',
    'member_number',
    'security_code',
    'house_check',
    'house_check_start_date',
    'house_check_end_date',
    'house_check_note',
    'image',
  ],
  residents: ['first_name', 'last_name', 'owner'],
  phones: ['phone_number', 'type', 'primary', 'do_not_call'],
};

/** What a create or a delete row keeps of the record: enough to name it ("Added resident Yolanda Vasquez"). */
const SUMMARY_FIELDS = {
  houses: ['address', 'apt', 'city', 'state', 'zip'],
  residents: ['first_name', 'last_name', 'owner'],
  phones: ['phone_number', 'type', 'primary'],
};

/** Bool fields; every other tracked field is stored as a string (text, select, date, one file name). */
const BOOL_FIELDS = ['house_check', 'owner', 'primary', 'do_not_call'];

/** Who wrote as the server's tooling (a superuser): no user to link. */
const SUPERUSER_NAME = 'Administrator';

/** A field's value as PocketBase stores it (so '' and an unset text compare equal, as do dates in one format). */
function storedValue(record, field) {
  return BOOL_FIELDS.indexOf(field) >= 0 ? record.getBool(field) : record.getString(field);
}

function valuesOf(record, fields) {
  const values = {};
  for (const field of fields) values[field] = storedValue(record, field);
  return values;
}

/** What the record was called then: the home's address, the resident's name, the phone number. */
function labelOf(collectionName, record) {
  let label;
  if (collectionName === 'houses') {
    const apt = record.getString('apt');
    label = apt ? `${record.getString('address')}, ${apt}` : record.getString('address');
  } else if (collectionName === 'residents') {
    label = `${record.getString('first_name')} ${record.getString('last_name')}`.trim();
  } else {
    label = record.getString('phone_number');
  }
  return label.slice(0, 250);
}

function houseIdOf(collectionName, record) {
  return collectionName === 'houses' ? record.id : record.getString('house');
}

/** The community of a home (residents and phones have theirs through it). */
function communityOf(app, collectionName, record) {
  if (collectionName === 'houses') return record.getString('community');
  return app.findRecordById('houses', record.getString('house')).getString('community');
}

/** Who made the request: a user (id and name), or a superuser (the server's tooling). */
function authorOf(e) {
  const auth = e.auth;
  if (!auth) return { id: '', name: '' };
  if (auth.collection().name !== 'users') return { id: '', name: SUPERUSER_NAME };
  const name = `${auth.getString('first_name')} ${auth.getString('last_name')}`.trim();
  return { id: auth.id, name: (name || auth.getString('email')).slice(0, 100) };
}

/**
 * Saves one history row. JSON values go in as JSON text: PocketBase reads a
 * plain string given to a JSON field as JSON when it can ("1234" would
 * become the number 1234 and lose a leading zero, "true" a bool), while a
 * double-quoted one stays a string.
 */
function saveRow(app, row) {
  const record = new Record(app.findCachedCollectionByNameOrId('home_changes'));
  record.set('community', row.community);
  record.set('house', row.house);
  record.set('collection_name', row.collectionName);
  record.set('record_id', row.recordId);
  record.set('action', row.action);
  record.set('field', row.field || '');
  record.set('from_value', JSON.stringify(row.from === undefined ? null : row.from));
  record.set('to_value', JSON.stringify(row.to === undefined ? null : row.to));
  record.set('record_label', row.label);
  record.set('changed_by', row.author.id);
  record.set('changed_by_name', row.author.name);
  app.save(record);
}

/**
 * onRecordCreateRequest: after the create succeeded, one 'create' row with
 * the record's main fields. A superuser's creates are the seeding and
 * importing of whole communities (thousands of homes, in batches): their
 * history would only copy the records and be pulled onto every device, so
 * it is not kept; the record's own `created` says when it came.
 */
function recordCreate(e) {
  if (e.hasSuperuserAuth()) return e.next();
  e.next();
  const collectionName = e.collection.name;
  const record = e.record;
  saveRow(e.app, {
    community: communityOf(e.app, collectionName, record),
    house: houseIdOf(collectionName, record),
    collectionName: collectionName,
    recordId: record.id,
    action: 'create',
    field: '',
    from: null,
    to: valuesOf(record, SUMMARY_FIELDS[collectionName]),
    label: labelOf(collectionName, record),
    author: authorOf(e),
  });
}

/**
 * onRecordUpdateRequest, before e.next(): the saved values of the tracked
 * fields (e.record.original()), read before the save replaces them.
 */
function beforeUpdate(e) {
  const collectionName = e.collection.name;
  return {
    collectionName: collectionName,
    values: valuesOf(e.record.original(), TRACKED_FIELDS[collectionName]),
  };
}

/**
 * onRecordUpdateRequest, after e.next() succeeded: one 'update' row per
 * tracked field whose stored value changed. The new values are read from
 * the saved record, where an uploaded photo has its stored file name.
 */
function recordUpdate(e, before) {
  const collectionName = before.collectionName;
  const record = e.record;
  const after = valuesOf(record, TRACKED_FIELDS[collectionName]);
  const changed = TRACKED_FIELDS[collectionName].filter((field) => after[field] !== before.values[field]);
  if (changed.length === 0) return;
  const common = {
    community: communityOf(e.app, collectionName, record),
    house: houseIdOf(collectionName, record),
    collectionName: collectionName,
    recordId: record.id,
    action: 'update',
    label: labelOf(collectionName, record),
    author: authorOf(e),
  };
  for (const field of changed) {
    saveRow(e.app, Object.assign({}, common, { field: field, from: before.values[field], to: after[field] }));
  }
}

/** A 'delete' row's content for a record about to be deleted. */
function deletionOf(app, collectionName, record, community) {
  return {
    community: community,
    house: houseIdOf(collectionName, record),
    collectionName: collectionName,
    recordId: record.id,
    action: 'delete',
    field: '',
    from: valuesOf(record, SUMMARY_FIELDS[collectionName]),
    to: null,
    label: labelOf(collectionName, record),
  };
}

/**
 * onRecordDeleteRequest, before e.next(): what the delete removes. A home
 * takes its residents and phones with it (their links cascade), so they
 * are read now, while they exist, and get their own rows.
 */
function beforeDelete(e) {
  const collectionName = e.collection.name;
  const record = e.record;
  const community = communityOf(e.app, collectionName, record);
  const rows = [deletionOf(e.app, collectionName, record, community)];
  if (collectionName === 'houses') {
    for (const child of ['residents', 'phones']) {
      for (const found of e.app.findRecordsByFilter(child, 'house = {:house}', 'created', 0, 0, { house: record.id })) {
        rows.push(deletionOf(e.app, child, found, community));
      }
    }
  }
  return rows;
}

/** onRecordDeleteRequest, after e.next() succeeded. */
function recordDelete(e, rows) {
  const author = authorOf(e);
  for (const row of rows) saveRow(e.app, Object.assign({}, row, { author: author }));
}

/**
 * The latest change of one field of one record, or null when the history
 * has none (the field was never changed since the record was created, or
 * since the history began): who ({by_id: '' for a superuser}, by_name) and
 * when (`at`, PocketBase's date text). Reads the index
 * (collection_name, record_id, field, created).
 */
function latestChange(app, collectionName, recordId, field) {
  const rows = app.findRecordsByFilter(
    'home_changes',
    "collection_name = {:c} && record_id = {:r} && field = {:f} && action = 'update'",
    '-created',
    1,
    0,
    { c: collectionName, r: recordId, f: field },
  );
  const row = rows.length > 0 ? rows[0] : null;
  if (!row) return null;
  return {
    by_id: row.getString('changed_by'),
    by_name: row.getString('changed_by_name'),
    at: row.getString('created'),
  };
}

module.exports = {
  TRACKED_FIELDS: TRACKED_FIELDS,
  BOOL_FIELDS: BOOL_FIELDS,
  storedValue: storedValue,
  recordCreate: recordCreate,
  beforeUpdate: beforeUpdate,
  recordUpdate: recordUpdate,
  beforeDelete: beforeDelete,
  recordDelete: recordDelete,
  latestChange: latestChange,
};
