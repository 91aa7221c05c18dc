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
// in `original_created` (the demo seed's month of history, an import of old
// reports). The report list sorts by `created` (spec §4), so history
// created in one minute would show its incident times out of order.
//
// Why a request hook: `created` is an autodate field, and PocketBase drops a
// `created` sent in a create request (its setter is a no-op), so it cannot be
// the key; it does keep a date set with setRaw() before the save. Doing it
// here keeps the create one atomic request (it works inside the seed's
// batches) and needs no second "fix the dates" route or raw SQL. Everyone
// else's `original_created` is ignored, like any other unknown key: for
// officers `created` stays the server's clock.

onRecordCreateRequest((e) => {
  const body = e.requestInfo().body;
  if (body['everything_ok'] === undefined && e.record.getString('type') === 'house_check') {
    const answer = require(`${__hooks}/lib/generated/house_check_answer.js`);
    e.record.set('everything_ok', answer.answerFromNarrative(e.record.getString('narative')));
  }

  const given = body['original_created'];
  if (!e.hasSuperuserAuth() || given === undefined || given === null || given === '') return e.next();
  let at;
  try {
    at = new DateTime(String(given));
  } catch {
    at = null;
  }
  if (!at || at.isZero()) throw new BadRequestError('original_created: not a date.');
  // History, never the future: the list's "newest first" would put it on top for good.
  if (at.after(new DateTime())) throw new BadRequestError('original_created: must not be in the future.');
  e.record.setRaw('created', at);
  return e.next();
}, 'reports');
