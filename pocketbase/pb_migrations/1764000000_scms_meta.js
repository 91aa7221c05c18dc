/// <reference path="../../.data/pb_data/types.d.ts" />
/**
 * scms_meta: facts about the server itself, superuser-only (no API rule is
 * set, so only superusers and hooks read or write it). The first fact is
 * `demo_seed`: written by the demo seed as its very last step, so that the
 * readiness hook (pb_hooks/readiness.pb.js) can say "ready" in demo mode only
 * once the demo sign-in really works.
 */
migrate(
  (app) => {
    const meta = new Collection({
      type: 'base',
      name: 'scms_meta',
      listRule: null,
      viewRule: null,
      createRule: null,
      updateRule: null,
      deleteRule: null,
      fields: [
        { type: 'text', name: 'key', required: true, min: 1, max: 100 },
        { type: 'json', name: 'value', maxSize: 10000 },
        { type: 'autodate', name: 'created', onCreate: true, onUpdate: false },
        { type: 'autodate', name: 'updated', onCreate: true, onUpdate: true },
      ],
      indexes: ['CREATE UNIQUE INDEX idx_scms_meta_key ON scms_meta (key)'],
    });
    app.save(meta);
  },
  (app) => {
    app.delete(app.findCollectionByNameOrId('scms_meta'));
  },
);
