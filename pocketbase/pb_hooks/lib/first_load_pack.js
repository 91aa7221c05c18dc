/// The first load's pages in a form made for them (route in
/// first_load.pb.js; the device's side in src/data/sync/firstLoadPages.ts
/// and load.ts).
///
/// A new phone reads every home, resident, phone, call and recent report of
/// its community once. Through the records API each page is read record by
/// record, its rule applied and each record serialised on its own, with its
/// field names and collection repeated in every record. Here SQLite builds
/// the whole page as one JSON text: the field names once, then one array of
/// values per record; the route sends it compressed. Same records, same
/// values as the records API lists (the integration test
/// first-load-pack.test.ts compares both, per role and community).
///
/// The scoping is the collections' list rule, written as SQL: a record of
/// the user's own community, or of a home of it. A collection is served
/// only while its list rule is exactly the one written here, so a rule
/// changed by a later migration makes the pack refuse instead of showing
/// what the rule no longer allows.

const SIGNED_IN = '@request.auth.id != "" && @request.auth.collectionName = "users"';

/**
 * The collections served, the list rule each must have, and how the SQL
 * scopes it. `time`: a history's time, which a load may ask for ranges of
 * (the device's src/data/sync/ranges.ts, HISTORY_TIME): a report's incident
 * time, a walk's round start, a scan's walk's round start (`viaWalk`).
 */
const SCOPES = {
  houses: { rule: `${SIGNED_IN} && community = @request.auth.community`, viaHouse: false },
  residents: { rule: `${SIGNED_IN} && house.community = @request.auth.community`, viaHouse: true },
  phones: { rule: `${SIGNED_IN} && house.community = @request.auth.community`, viaHouse: true },
  calls: { rule: `${SIGNED_IN} && community = @request.auth.community`, viaHouse: false },
  call_attempts: { rule: `${SIGNED_IN} && community = @request.auth.community`, viaHouse: false },
  home_changes: { rule: `${SIGNED_IN} && community = @request.auth.community`, viaHouse: false },
  reports: {
    rule: `${SIGNED_IN} && community = @request.auth.community`,
    viaHouse: false,
    time: '[[t.incident_time]]',
  },
  tour_walks: {
    rule: `${SIGNED_IN} && community = @request.auth.community`,
    viaHouse: false,
    time: '[[t.round_start]]',
  },
  checkpoint_scans: {
    rule: `${SIGNED_IN} && community = @request.auth.community`,
    viaHouse: false,
    viaWalk: true,
    time: '[[w.round_start]]',
  },
};

/** Most records in one answer (about 1 MB of JSON before compression at the largest). */
const MAX_LIMIT = 2000;
/** Most time ranges in one request (the parts of a history a device lacks: in practice one or two). */
const MAX_RANGES = 50;

const ID_BOUND = /^[a-z0-9]{1,15}$/;
/** PocketBase's stored date form, which the device sends (src/domain/pbDate.ts). */
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * The SQL of one field's value as the records API answers it: true/false
 * for a bool, the parsed value of a JSON field (null when empty), a list
 * for a multiple select, relation or file, 0 for an empty number, and
 * otherwise the stored text ('' when empty).
 */
function valueSql(field) {
  const column = `[[t.${field.name}]]`;
  const type = field.type();
  if (type === 'bool') return `CASE WHEN ${column} THEN json('true') ELSE json('false') END`;
  if (type === 'json' || type === 'geoPoint') return `json(COALESCE(NULLIF(${column}, ''), 'null'))`;
  if ((type === 'select' || type === 'relation' || type === 'file') && field.isMultiple()) {
    return `json(COALESCE(NULLIF(${column}, ''), '[]'))`;
  }
  if (type === 'number') return `COALESCE(${column}, 0)`;
  return `COALESCE(${column}, '')`;
}

/** The request's bounds, checked: a bad one is a 400 naming it, before any query runs. */
function readRequest(e, fail) {
  const name = e.request.pathValue('collection');
  const scope = Object.prototype.hasOwnProperty.call(SCOPES, name) ? SCOPES[name] : null;
  if (!scope) throw fail(404, 'No first-load pages for this collection.');
  const query = e.request.url.query();
  const from = query.get('from');
  const after = query.get('after');
  const to = query.get('to');
  if (from && !ID_BOUND.test(from)) throw fail(400, 'from must be a record id.');
  if (after && !ID_BOUND.test(after)) throw fail(400, 'after must be a record id.');
  if (to && to !== '~' && !ID_BOUND.test(to)) throw fail(400, 'to must be a record id or ~.');
  const limitText = query.get('limit');
  const limit = limitText === '' ? MAX_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText || '0') || limit < 1 || limit > MAX_LIMIT) {
    throw fail(400, `limit must be a whole number from 1 to ${MAX_LIMIT}.`);
  }
  // `incident`: the name an earlier app gave reports' ranges.
  const incident = query.get('incident');
  if (incident && name !== 'reports') throw fail(400, 'incident applies to reports only.');
  const time = query.get('time') || incident;
  const ranges = [];
  if (time) {
    if (!scope.time) throw fail(400, 'time applies to reports, tour_walks and checkpoint_scans only.');
    const parts = time.split(',');
    if (parts.length > MAX_RANGES) throw fail(400, `At most ${MAX_RANGES} time ranges.`);
    for (const part of parts) {
      const ends = part.split('/');
      if (ends.length !== 2 || !PB_DATE.test(ends[0]) || !PB_DATE.test(ends[1])) {
        throw fail(400, 'time must be ranges of dates: from/to, separated by commas.');
      }
      ranges.push({ from: ends[0], to: ends[1] });
    }
  }
  const headText = query.get('head');
  if (headText !== '' && headText !== '1') throw fail(400, 'head must be 1 when given.');
  return { name, scope, from, after, to: to === '~' ? '' : to, limit, ranges, head: headText === '1' };
}

/** The WHERE of a request: the list rule as SQL, then its bounds (`withIds`: the id range too). */
function scopeSql(request, auth, withIds) {
  const params = { community: auth.getString('community') };
  const where = [request.scope.viaHouse ? '[[h.community]] = {:community}' : '[[t.community]] = {:community}'];
  if (withIds && request.from) {
    where.push('[[t.id]] >= {:from}');
    params.from = request.from;
  }
  if (withIds && request.after) {
    where.push('[[t.id]] > {:after}');
    params.after = request.after;
  }
  if (withIds && request.to) {
    where.push('[[t.id]] < {:to}');
    params.to = request.to;
  }
  if (request.ranges.length) {
    const any = request.ranges.map((range, i) => {
      params[`since${i}`] = range.from;
      params[`until${i}`] = range.to;
      return `(${request.scope.time} >= {:since${i}} AND ${request.scope.time} <= {:until${i}})`;
    });
    where.push(`(${any.join(' OR ')})`);
  }
  let join = request.scope.viaHouse ? 'JOIN {{houses}} h ON [[h.id]] = [[t.house]]' : '';
  // A scan's walk is required (the schema), so every scan has one to join.
  if (request.scope.viaWalk && request.ranges.length) join = 'JOIN {{tour_walks}} w ON [[w.id]] = [[t.walk]]';
  return { from: `{{${request.name}}} t ${join} WHERE ${where.join(' AND ')}`, params };
}

/**
 * The page: `{"fields": [...], "rows": [[...], ...], "last": id}`, the rows
 * ordered by id, `last` the id of the last row ('' when none). Built whole
 * by SQLite and passed through as text.
 */
function page(e, request, collection, auth) {
  const fields = [];
  for (const field of collection.fields) {
    // What the records API never shows a staff member.
    if (!field.hidden && field.type() !== 'password') fields.push(field);
  }
  const scope = scopeSql(request, auth, true);
  const sql =
    `SELECT json_object('fields', json({:names}), 'rows', json_group_array(json(row)), 'last', COALESCE(MAX(id), '')) AS body ` +
    `FROM (SELECT [[t.id]] AS id, json_array(${fields.map(valueSql).join(', ')}) AS row ` +
    `FROM ${scope.from} ORDER BY [[t.id]] LIMIT {:limit})`;
  const params = Object.assign(scope.params, {
    limit: request.limit,
    names: JSON.stringify(fields.map((f) => f.name)),
  });
  const result = new DynamicModel({ body: '' });
  e.app.db().newQuery(sql).bind(params).one(result);
  e.response.header().set('Content-Type', 'application/json; charset=utf-8');
  e.response.header().set('Cache-Control', 'no-store');
  return e.string(200, result.body);
}

/**
 * The head of a load (`?head=1`): `{"total": n, "newest": {"updated", "id"}
 * | null}`, what the device needs before the pages (the progress's total
 * and its cursor). The records API's head sorts every record of the
 * community by (updated, id) and counts them through the rule: at 20,000
 * homes a quarter of a first sync's server time. Here the newest
 * `updated` is an index's last entry, and the id is looked up among the
 * records of that instant.
 */
function head(e, request, auth) {
  const scope = scopeSql(request, auth, false);
  // One statement, so one snapshot: a record saved between a count and a
  // lookup (calls change all the time) cannot leave the newest unfound.
  const found = new DynamicModel({ total: 0, updated: '', id: '' });
  e.app
    .db()
    .newQuery(
      `SELECT m.total AS total, m.updated AS updated, COALESCE((SELECT [[t.id]] FROM ${scope.from} ` +
        `AND [[t.updated]] = m.updated ORDER BY [[t.id]] DESC LIMIT 1), '') AS id ` +
        `FROM (SELECT COUNT(*) AS total, COALESCE(MAX([[t.updated]]), '') AS updated FROM ${scope.from}) m`,
    )
    .bind(scope.params)
    .one(found);
  e.response.header().set('Cache-Control', 'no-store');
  return e.json(200, { total: found.total, newest: found.updated ? { updated: found.updated, id: found.id } : null });
}

/** GET /api/scms/first-load/{collection}: a page, or with `head=1` the head. */
function serve(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  return respond.handle(e, () => {
    const auth = respond.requireStaff(e);
    const request = readRequest(e, respond.fail);
    const collection = e.app.findCollectionByNameOrId(request.name);
    if (String(collection.listRule) !== request.scope.rule) {
      // The rule moved on without this file: refuse rather than guess.
      e.app.logger().error('first-load pack: list rule differs', 'collection', request.name);
      throw respond.fail(503, 'First-load pages are not available for this collection.');
    }
    return request.head ? head(e, request, auth) : page(e, request, collection, auth);
  });
}

module.exports = { serve };
