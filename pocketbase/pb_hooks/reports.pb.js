/// <reference path="../../.data/pb_data/types.d.ts" />
// Two things a report's create request may need, in one handler: every JS
// handler on the create chain holds a pooled JS VM until the rest of the
// chain has run, and a batch runs its creates nested (record_ids.pb.js), so
// a second handler here would slow every batch of reports down.
//
// 1. A house check sent without `everything_ok` (an entry an older app
// version left in an officer's outbox, replayed after the update) gets the
// answer its narrative gives away (src/domain/houseCheckAnswer.ts, compiled
// to lib/generated/house_check_answer.js; loaded only for such a check).
// A check that sends the field keeps what it sent: lib/validation.js has
// checked it already ('yes', 'no' or '').
//
// 2. A superuser's create of a report may say when the report was written,
// in `original_created` (lib/original_created.js): the demo seed's month of
// history, an import of old reports.

onRecordCreateRequest((e) => {
  const body = e.requestInfo().body;
  if (body['everything_ok'] === undefined && e.record.getString('type') === 'house_check') {
    const answer = require(`${__hooks}/lib/generated/house_check_answer.js`);
    e.record.set('everything_ok', answer.answerFromNarrative(e.record.getString('narative')));
  }

  if (body['original_created'] !== undefined && e.hasSuperuserAuth())
    require(`${__hooks}/lib/original_created.js`).applyOriginalCreated(e, body);
  return e.next();
}, 'reports');
