/// Tombstones of deleted records (migration
/// 1764300000_deleted_records.js): written when a mirrored record is deleted,
/// read when a record is created with an id the client chose. Loaded with
/// require() inside each handler (pooled VMs do not share a file's scope).

/** The collections the app mirrors and may create records of with its own ids. */
const TRACKED = ['houses', 'residents', 'phones', 'reports', 'concerns', 'users', 'calls'];

/** The error code the outbox's replay reads (src/data/sync/replay.ts: DELETED_SINCE). */
const DELETED_CODE = 'validation_record_deleted';
const DELETED_MESSAGE = 'This record was deleted after it was sent; it is not created again.';

/** The community a record belongs to: its own, or (residents, phones) its house's. */
function communityOf(app, record) {
  if (record.collection().fields.getByName('community')) return record.getString('community');
  const houseId = record.getString('house');
  if (!houseId) return '';
  try {
    return app.findRecordById('houses', houseId).getString('community');
  } catch {
    // Deleted with its house (cascade: PocketBase removes the house first, in
    // the same transaction): the house's tombstone, just written, knows.
    const house = tombstoneOf(app, 'houses', houseId);
    return house ? house.getString('community') : '';
  }
}

/** The tombstone of `id` in `collectionName`, or null. */
function tombstoneOf(app, collectionName, id) {
  try {
    return app.findFirstRecordByFilter('deleted_records', 'collection_name = {:c} && record_id = {:id}', {
      c: collectionName,
      id: id,
    });
  } catch {
    return null;
  }
}

/**
 * onRecordDelete: the tombstone is saved with the app of the delete (its
 * transaction when there is one: a batch, a cascade), before the delete. A
 * delete that fails takes its tombstone back.
 */
function recordDeletion(e) {
  const record = e.record;
  const name = record.collection().name;
  let saved = null;
  if (!tombstoneOf(e.app, name, record.id)) {
    saved = new Record(e.app.findCollectionByNameOrId('deleted_records'));
    saved.set('collection_name', name);
    saved.set('record_id', record.id);
    saved.set('community', communityOf(e.app, record));
    e.app.save(saved);
  }
  try {
    e.next();
  } catch (err) {
    if (saved) {
      try {
        e.app.delete(saved);
      } catch {
        // already gone with a rolled-back transaction
      }
    }
    throw err;
  }
}

/**
 * onRecordCreateRequest: an id that names a deleted record is never used
 * again. To the deleted record's own community (the device whose earlier
 * attempt created it) a 409 says so, and the outbox settles the entry; to
 * anyone else it is one more id that cannot be used (the words of
 * lib/passwords.js), which tells nothing about another community.
 */
function refuseDeletedId(e) {
  const id = e.record.id;
  if (!id) return;
  const tombstone = tombstoneOf(e.app, e.collection.name, id);
  if (!tombstone) return;
  const auth = e.auth;
  const community = auth && auth.collection().name === 'users' ? auth.getString('community') : '';
  if (community !== '' && community === tombstone.getString('community')) {
    throw new ApiError(409, DELETED_MESSAGE, { id: new ValidationError(DELETED_CODE, DELETED_MESSAGE) });
  }
  const { ID_REFUSED } = require(`${__hooks}/lib/passwords.js`);
  throw new BadRequestError('Failed to save the record.', {
    id: new ValidationError('validation_invalid_id', ID_REFUSED),
  });
}

module.exports = {
  TRACKED: TRACKED,
  DELETED_CODE: DELETED_CODE,
  recordDeletion: recordDeletion,
  refuseDeletedId: refuseDeletedId,
};
