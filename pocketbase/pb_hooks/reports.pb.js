/// <reference path="../../.data/pb_data/types.d.ts" />
// A superuser's create of a report may say when the report was written, in
// `original_created` (the demo seed's month of history, an import of old
// reports). The report list sorts by `created` (spec §4), so history created
// in one minute would show its incident times out of order.
//
// Why a request hook: `created` is an autodate field, and PocketBase drops a
// `created` sent in a create request (its setter is a no-op), so it cannot be
// the key; it does keep a date set with setRaw() before the save. Doing it
// here keeps the create one atomic request (it works inside the seed's
// batches) and needs no second "fix the dates" route or raw SQL. Everyone
// else's `original_created` is ignored, like any other unknown key: for
// officers `created` stays the server's clock.

onRecordCreateRequest((e) => {
  const given = e.requestInfo().body['original_created'];
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
