/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * Tombstones: one row for every deleted record of a
 * collection the app mirrors, so that a create the server committed, whose
 * answer the device lost, and which a colleague deleted before the device
 * tried again, is never brought back by that retry: the outbox re-sends a
 * create whose id it cannot find, and PocketBase alone would store it anew.
 * pb_hooks/deleted_records.pb.js writes a row in the delete's own
 * transaction and refuses a create of an id that has one.
 *
 * Superusers only (every rule null): the hooks read and write it as the
 * server; nobody reads it through the API. `community` is the deleted
 * record's (a resident's or phone's through its house), so a refusal can tell
 * the record's own community "deleted" and anyone else only "cannot be used".
 * Text, not a relation: a tombstone outlives what it names.
 */
migrate(
  (app) => {
    const collection = new Collection({
      type: 'base',
      name: 'deleted_records',
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { type: 'text', name: 'collection_name', required: true, min: 1, max: 50 },
        { type: 'text', name: 'record_id', required: true, min: 1, max: 15 },
        { type: 'text', name: 'community', max: 15 },
        { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
      ],
      indexes: ['CREATE UNIQUE INDEX idx_deleted_records_record ON deleted_records (collection_name, record_id)'],
    });
    app.save(collection);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId('deleted_records'));
  },
);
