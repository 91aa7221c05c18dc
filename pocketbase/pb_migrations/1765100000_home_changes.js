/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * The history of every change of a home, its residents and its phones: one
 * row per changed field of an update, one row per create and per delete
 * (with the record's main fields, so the History sheet can say "Added
 * resident Yolanda Vasquez"). Written by the server only
 * (pb_hooks/home_history.pb.js, in the write's own transaction), read by
 * the History sheet of a home and by the check of stale updates, which asks
 * for the latest change of one field of one record. A value that another
 * write replaced is never gone: it is the `from_value` of that write's row.
 *
 * `house` is text, not a relation: the history outlives a deleted home.
 * `changed_by` does not cascade (a deleted user leaves the rows, and their
 * name stays in `changed_by_name`).
 *
 * Written out, not imported: migrations are history.
 */
migrate(
  (app) => {
    const signedIn = '@request.auth.id != "" && @request.auth.collectionName = "users"';
    const sameCommunity = 'community = @request.auth.community';
    const communities = app.findCollectionByNameOrId('communities');
    const users = app.findCollectionByNameOrId('users');
    const collection = new Collection({
      type: 'base',
      name: 'home_changes',
      listRule: `${signedIn} && ${sameCommunity}`,
      viewRule: `${signedIn} && ${sameCommunity}`,
      // Never trusted from a device: only the server (and superusers) write history.
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        {
          type: 'text',
          name: 'id',
          primaryKey: true,
          system: true,
          required: true,
          min: 15,
          max: 15,
          pattern: '^[a-z0-9]+$',
          autogeneratePattern: '[a-z0-9]{15}',
        },
        {
          type: 'relation',
          name: 'community',
          required: true,
          maxSelect: 1,
          collectionId: communities.id,
          cascadeDelete: false,
        },
        { type: 'text', name: 'house', required: true, min: 1, max: 15 },
        {
          type: 'select',
          name: 'collection_name',
          required: true,
          maxSelect: 1,
          values: ['houses', 'residents', 'phones'],
        },
        { type: 'text', name: 'record_id', required: true, min: 1, max: 15 },
        { type: 'select', name: 'action', required: true, maxSelect: 1, values: ['create', 'update', 'delete'] },
        // '' for a create or a delete.
        { type: 'text', name: 'field', max: 50 },
        // The longest values are notes (4,500 characters), escaped in JSON.
        { type: 'json', name: 'from_value', maxSize: 65536 },
        { type: 'json', name: 'to_value', maxSize: 65536 },
        { type: 'text', name: 'record_label', max: 250 },
        { type: 'relation', name: 'changed_by', maxSelect: 1, collectionId: users.id, cascadeDelete: false },
        { type: 'text', name: 'changed_by_name', max: 100 },
        { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
        { type: 'autodate', name: 'updated', onCreate: true, onUpdate: true },
      ],
      indexes: [
        // The latest change of one field of one record (the check of stale updates).
        'CREATE INDEX idx_home_changes_field ON home_changes (collection_name, record_id, field, created)',
        // A home's History sheet.
        'CREATE INDEX idx_home_changes_house_created ON home_changes (house, created)',
        // Incremental pulls (src/data/sync/pull.ts).
        'CREATE INDEX idx_home_changes_community_updated ON home_changes (community, updated)',
      ],
    });
    app.save(collection);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId('home_changes'));
  },
);
