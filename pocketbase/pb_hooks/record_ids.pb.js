/// <reference path="../../.data/pb_data/types.d.ts" />
// A client-chosen id on create (the outbox names its records itself) is
// refused when a record has it already, anywhere (lib/passwords.js: without
// saying it exists), or when it was deleted (lib/deleted_records.js: a
// retry must not bring a deleted record back).
//
// Both checks are one handler on purpose: every JS handler on the create
// chain holds a pooled JS VM until the rest of the chain has run, and the 50
// creates of a batch run nested, one inside the other's chain: with two
// handlers here a batch of 50 reports took about 200 ms instead of 60, as
// the pool of VMs ran out and new ones were made for every record (see also
// HOOKS_POOL in scripts/pocketbase/server.ts).

onRecordCreateRequest((e) => {
  if (e.hasSuperuserAuth()) return e.next();
  require(`${__hooks}/lib/passwords.js`).checkChosenId(e);
  const tombstones = require(`${__hooks}/lib/deleted_records.js`);
  if (tombstones.TRACKED.indexOf(e.collection.name) >= 0) tombstones.refuseDeletedId(e);
  return e.next();
});
