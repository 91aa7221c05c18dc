/// <reference path="../../.data/pb_data/types.d.ts" />
// Checkpoint tours' rules that API rules cannot say (lib/tours.js): the
// codes a checkpoint is given and keeps, the community of a tour's
// checkpoints, the code a scan carries and where it was made, and deletes
// that would lose a patrol's history. One handler per request chain: a
// batch runs its creates nested, each holding a pooled VM (reports.pb.js).

onRecordCreateRequest((e) => {
  require(`${__hooks}/lib/tours.js`).giveCodes(e);
  return e.next();
}, 'checkpoints');

onRecordUpdateRequest((e) => {
  require(`${__hooks}/lib/tours.js`).keepCodes(e);
  return e.next();
}, 'checkpoints');

onRecordDeleteRequest((e) => {
  require(`${__hooks}/lib/tours.js`).refuseCheckpointDelete(e);
  return e.next();
}, 'checkpoints');

onRecordCreateRequest((e) => {
  require(`${__hooks}/lib/tours.js`).checkTourCheckpoints(e);
  return e.next();
}, 'tours');

onRecordUpdateRequest((e) => {
  require(`${__hooks}/lib/tours.js`).checkTourCheckpoints(e);
  return e.next();
}, 'tours');

onRecordDeleteRequest((e) => {
  require(`${__hooks}/lib/tours.js`).refuseTourDelete(e);
  return e.next();
}, 'tours');

onRecordCreateRequest((e) => {
  require(`${__hooks}/lib/tours.js`).checkScan(e);
  return e.next();
}, 'checkpoint_scans');

// The rounds of a day and how each went, by the phones' own rule (lib/tours.js).
routerAdd('GET', '/api/scms/tour-rounds', (e) => {
  const { handle } = require(`${__hooks}/lib/respond.js`);
  return handle(e, require(`${__hooks}/lib/tours.js`).tourRounds);
});
