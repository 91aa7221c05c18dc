/// <reference path="../../.data/pb_data/types.d.ts" />
// A house created without a state is in Florida (spec §3: "state (default
// FL)"). A select field has no default value, so it is filled in here, on the
// create request before the record is validated.

onRecordCreateRequest((e) => {
  if (e.record.getString('state') === '') e.record.set('state', 'FL');
  return e.next();
}, 'houses');
