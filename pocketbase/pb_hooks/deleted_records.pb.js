/// <reference path="../../.data/pb_data/types.d.ts" />
// Tombstones: a mirrored record deleted on the server is
// never created again by a device retrying a create whose first answer it
// lost (lib/deleted_records.js holds the logic and the collections).

const { TRACKED } = require(`${__hooks}/lib/deleted_records.js`);

onRecordDelete(
  (e) => {
    require(`${__hooks}/lib/deleted_records.js`).recordDeletion(e);
  },
  ...TRACKED,
);

// The refusal of a tombstoned id on create is in record_ids.pb.js, with the
// other check of a client-chosen id (one handler for both).
