/// <reference path="../../.data/pb_data/types.d.ts" />
// The history of every change of a home, its residents and its phones
// (lib/home_history.js holds the logic and the tracked fields; migration
// 1765100000_home_changes.js the collection), and before an update or a
// delete the check that refuses one someone else's change overtook
// (lib/conflicts.js): a refused write never reaches the history. Direct requests and the
// sub-requests of /api/batch run through these same hooks; rows are saved
// with e.app, so a batch that fails takes them back with its writes.
//
// One handler per event for the three collections, the library loaded with
// require() inside it: every JS handler holds a pooled VM until the rest of
// the chain has run, and a batch runs its requests nested (see
// record_ids.pb.js and HOOKS_POOL in scripts/pocketbase/server.ts).

onRecordCreateRequest(
  (e) => {
    require(`${__hooks}/lib/home_history.js`).recordCreate(e);
  },
  'houses',
  'residents',
  'phones',
);

onRecordUpdateRequest(
  (e) => {
    // An update based on values someone else changed since is refused first (lib/conflicts.js).
    if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/conflicts.js`).refuseStaleUpdate(e);
    const history = require(`${__hooks}/lib/home_history.js`);
    // The saved values, read before the save replaces them.
    const before = history.beforeUpdate(e);
    e.next();
    history.recordUpdate(e, before);
  },
  'houses',
  'residents',
  'phones',
);

onRecordDeleteRequest(
  (e) => {
    // So is a delete of a record changed since the person saw it.
    if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/conflicts.js`).refuseStaleDelete(e);
    const history = require(`${__hooks}/lib/home_history.js`);
    // Read while they exist: the record, and a home's residents and phones (they go with it).
    const rows = history.beforeDelete(e);
    e.next();
    history.recordDelete(e, rows);
  },
  'houses',
  'residents',
  'phones',
);
