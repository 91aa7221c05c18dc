/// <reference path="../../.data/pb_data/types.d.ts" />
// A catch-up pull's changes of every collection scoped by its community, in
// one request and one gzipped answer (lib/changes.js).
// GET /api/scms/changes?cursors={"collection": {"updated", "id"}, …}&limit=.

routerAdd('GET', '/api/scms/changes', (e) => require(`${__hooks}/lib/changes.js`).serve(e), $apis.gzip());
