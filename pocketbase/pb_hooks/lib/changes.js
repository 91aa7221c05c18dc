/// A catch-up pull in one request (route in changes.pb.js; the device's
/// side in src/data/sync/changes.ts).
///
/// A phone whose mirror is filled pulls what changed after its cursor in
/// every collection. Through the records API that is one request per
/// collection, most of them answering nothing: nineteen requests through a
/// browser's six connections, so four round trips on a weak signal, and
/// nineteen answers to parse. Here one request carries the cursors of the
/// collections scoped by their own community field (ANSWERED_AT_ONCE in
/// src/domain/pullFilter.ts) and one answer brings all their changes.
/// Residents and phones, scoped through their home, stay on the records
/// API: pullFilter.ts says why their empty answers keep PocketBase's wait.
///
/// The records are PocketBase's own: found with the list rule's scope as a
/// filter plus the pull's cursor filter, in (updated, id) order, and
/// enriched as the records API enriches them (hidden fields and other
/// people's e-mail addresses left out). The scope is the list rule with the
/// signed-in user's community put in, and a collection is served only while
/// its list rule is exactly one of those written here: a rule changed by a
/// later migration makes the answer say `unavailable` for it, and the device
/// pulls it through the records API, rule and all. The integration test
/// changes-route.test.ts compares both per role and community.

const SIGNED_IN = '@request.auth.id != "" && @request.auth.collectionName = "users"';

/** A list rule this route implements → the same scope as a filter, `{:community}` the user's. */
const SCOPE_OF_RULE = {};
SCOPE_OF_RULE[`${SIGNED_IN} && community = @request.auth.community`] = 'community = {:community}';
SCOPE_OF_RULE[`${SIGNED_IN} && id = @request.auth.community`] = 'id = {:community}';

/** A collection's changes after its cursor, at most `limit`, and whether more follow. */
function changesOf(e, collection, cursor, limit, community, pulls) {
  const scope = Object.prototype.hasOwnProperty.call(SCOPE_OF_RULE, String(collection.listRule))
    ? SCOPE_OF_RULE[String(collection.listRule)]
    : null;
  if (!scope) {
    // The rule moved on without this file: the device reads it through the records API.
    e.app.logger().error('changes route: list rule differs', 'collection', collection.name);
    return { unavailable: true };
  }
  const filter = cursor.updated ? `${scope} && (${pulls.CURSOR_FILTER})` : scope;
  // One more than asked for tells whether more follow.
  const found = e.app.findRecordsByFilter(collection.name, filter, 'updated,id', limit + 1, 0, {
    community: community,
    u: cursor.updated,
    id: cursor.id,
  });
  const more = found.length > limit;
  // A Go slice in the VM: copied into a list, without the extra record.
  const items = [];
  for (let i = 0; i < found.length && i < limit; i++) items.push(found[i]);
  $apis.enrichRecords(e, items);
  return { items: items, more: more };
}

/**
 * GET /api/scms/changes?cursors={"collection": {"updated", "id"}, …}&limit=
 * (`limit`: most records in the answer) → `{changes: {collection: {items,
 * more} | {unavailable: true}}}`. A GET, so that nothing but the query is
 * read before the records are enriched (which reads the request again).
 */
function serve(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  const pulls = require(`${__hooks}/lib/generated/pull_filter.js`);
  const requests = require(`${__hooks}/lib/generated/changes_request.js`);
  return respond.handle(e, () => {
    const auth = respond.requireStaff(e);
    const read = requests.readChangesQuery(e.requestInfo().query);
    if (read.problem) throw respond.fail(400, read.problem);
    const request = read.request;
    const community = auth.getString('community');
    const changes = {};
    // Collections in the served order (parents before children) share the answer's room; those it has
    // no room left for say `more` and come in the next answer.
    let room = request.limit || requests.CHANGES_PER_ANSWER;
    for (const name of pulls.ANSWERED_AT_ONCE) {
      if (!Object.prototype.hasOwnProperty.call(request.cursors, name)) continue;
      if (room === 0) {
        changes[name] = { items: [], more: true };
        continue;
      }
      const collection = e.app.findCollectionByNameOrId(name);
      const answer = changesOf(e, collection, request.cursors[name], room, community, pulls);
      if (answer.items) room -= answer.items.length;
      changes[name] = answer;
    }
    e.response.header().set('Cache-Control', 'no-store');
    return e.json(200, { changes: changes });
  });
}

module.exports = { serve };
