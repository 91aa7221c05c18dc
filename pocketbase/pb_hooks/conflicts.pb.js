/// <reference path="../../.data/pb_data/types.d.ts" />
// Field-level concurrency for homes, residents and phones (lib/conflicts.js
// says how it is decided): an update or delete based on values someone else
// has changed since is refused with 409, inside a batch too (the batch is
// then refused whole). Only these three collections: the directory is what
// several people edit; reports are created, never edited.
//
// This file's name sorts before home_history.pb.js, so its handlers run
// first: a refused change never reaches the history.

onRecordUpdateRequest(
  (e) => {
    if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/conflicts.js`).refuseStaleUpdate(e);
    return e.next();
  },
  'houses',
  'residents',
  'phones',
);

onRecordDeleteRequest(
  (e) => {
    if (!e.hasSuperuserAuth()) require(`${__hooks}/lib/conflicts.js`).refuseStaleDelete(e);
    return e.next();
  },
  'houses',
  'residents',
  'phones',
);
