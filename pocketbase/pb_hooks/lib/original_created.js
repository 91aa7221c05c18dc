/// A superuser's create may say when a record was made, in
/// `original_created`: the demo seed's history of reports and calls, an
/// import of old ones. Lists sort by `created` (docs/product.md#the-reports-list), so history created
/// in one minute would show out of order, and the dashboard counts calls by
/// `created`.
///
/// `created` is an autodate field, and PocketBase drops a `created` sent in a
/// create request (its setter is a no-op), so it cannot be the key; it does
/// keep a date set with setRaw() before the save. Called from a create
/// request hook, this keeps the create one atomic request (it works inside
/// the seed's batches) and needs no second "fix the dates" route or raw SQL.
/// Everyone else's `original_created` is ignored, like any other unknown
/// key: for officers `created` stays the server's clock.

/** Sets `created` from the body's `original_created` for a superuser; throws BadRequestError when it is not a past date. */
function applyOriginalCreated(e, body) {
  const given = body['original_created'];
  if (!e.hasSuperuserAuth() || given === undefined || given === null || given === '') return;
  let at;
  try {
    at = new DateTime(String(given));
  } catch {
    at = null;
  }
  if (!at || at.isZero()) throw new BadRequestError('original_created: not a date.');
  // History, never the future: a list's "newest first" would put it on top for good.
  if (at.after(new DateTime())) throw new BadRequestError('original_created: must not be in the future.');
  e.record.setRaw('created', at);
}

module.exports = { applyOriginalCreated: applyOriginalCreated };
