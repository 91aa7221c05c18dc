/// The server's side of checkpoint tours (pb_migrations/1765600000_checkpoint_tours.js):
/// the codes a checkpoint is given, the checks a tour's checkpoints and a
/// scan's code pass, and the deletes that would lose a patrol's history.
/// What a code is and where a scan stands come from src/domain/checkpointCode.ts
/// (generated/checkpoint_code.js), the rule the phone matches scans with.

function codes() {
  return require(`${__hooks}/lib/generated/checkpoint_code.js`);
}

function fieldError(field, message) {
  const data = {};
  data[field] = new ValidationError('validation_invalid_value', message);
  return new BadRequestError('Failed to save the record.', data);
}

/** A short code no other checkpoint of the community has (30^6 codes: a repeat is rare, never kept). */
function freeShortCode(app, community, code) {
  for (let attempt = 0; attempt < 20; attempt++) {
    const candidate = $security.randomStringWithAlphabet(code.SHORT_CODE_LENGTH, code.SHORT_CODE_ALPHABET);
    const taken = app.countRecords('checkpoints', $dbx.hashExp({ community: community, short_code: candidate }));
    if (taken === 0) return candidate;
  }
  throw new InternalServerError('No free short code could be found.');
}

/** A new checkpoint's token and short code are the server's, whatever the request sent. */
function giveCodes(e) {
  const code = codes();
  e.record.set('token', $security.randomStringWithAlphabet(code.TOKEN_LENGTH, code.TOKEN_ALPHABET));
  e.record.set('short_code', freeShortCode(e.app, e.record.getString('community'), code));
}

/** An update never changes them: a printed sticker stays valid. */
function keepCodes(e) {
  const original = e.record.original();
  e.record.set('token', original.getString('token'));
  e.record.set('short_code', original.getString('short_code'));
}

/**
 * A checkpoint with scans is the evidence of patrols: it stays (take it
 * off its tours instead). One that is the last of a tour would leave the
 * tour empty, which PocketBase refuses without saying why.
 */
function refuseCheckpointDelete(e) {
  const id = e.record.id;
  const scans = e.app.countRecords('checkpoint_scans', $dbx.hashExp({ checkpoint: id }));
  if (scans > 0)
    throw new BadRequestError(
      `This checkpoint was scanned ${scans} time(s) and cannot be deleted: take it off its tours instead.`,
    );
  const tours = e.app.findRecordsByFilter('tours', 'checkpoints ~ {:id}', '', 0, 0, { id: id });
  for (const tour of tours) {
    const list = tour.getStringSlice('checkpoints');
    if (list.length === 1 && list[0] === id)
      throw new BadRequestError(
        `This checkpoint is the only one of the tour ${tour.getString('name')}: change or delete the tour first.`,
      );
  }
}

/** Every checkpoint of a tour is one of the tour's community (the record rules refuse one listed twice). */
function checkTourCheckpoints(e) {
  const ids = e.record.getStringSlice('checkpoints');
  const community = e.record.getString('community');
  if (ids.length === 0) return; // PocketBase's own 'required' answers
  const found = e.app.countRecords(
    'checkpoints',
    $dbx.and($dbx.in('id', ...ids), $dbx.hashExp({ community: community })),
  );
  if (found !== ids.length) throw fieldError('checkpoints', "Every checkpoint must be one of this community's.");
}

/** A tour that was walked keeps its rounds' history: it can be turned off, not deleted. */
function refuseTourDelete(e) {
  const walks = e.app.countRecords('tour_walks', $dbx.hashExp({ tour: e.record.id }));
  if (walks > 0)
    throw new BadRequestError(`This tour was walked ${walks} time(s) and cannot be deleted: turn it off instead.`);
}

/**
 * A scan names its checkpoint, and carries the code the camera read (or
 * the NFC tag held) or the short code the officer typed: it must be that
 * checkpoint's, in the officer's community. Where the scan was made is
 * worked out here from the two positions, whatever the request said.
 */
function checkScan(e) {
  const code = codes();
  const { positionOf } = require(`${__hooks}/lib/position.js`);
  const record = e.record;
  const checkpoint = e.app.findRecordById('checkpoints', record.getString('checkpoint'));
  if (!e.hasSuperuserAuth()) {
    const sent = e.requestInfo().body['code'];
    if (typeof sent !== 'string' || sent.trim() === '')
      throw fieldError('code', 'Scan the checkpoint or type the code printed under it.');
    const keys = {
      id: checkpoint.id,
      community: checkpoint.getString('community'),
      token: checkpoint.getString('token'),
      short_code: checkpoint.getString('short_code'),
    };
    const community = e.auth.getString('community');
    const match =
      record.getString('method') === 'code'
        ? code.matchShortCode(sent, community, [keys])
        : code.matchScannedText(sent, community, [keys]);
    if (match.error) throw fieldError('code', match.error);
  }
  const at = positionOf(checkpoint.get('position'));
  const place = code.scanPlace(
    {
      latitude: at ? at.latitude : null,
      longitude: at ? at.longitude : null,
      radius: checkpoint.getInt('radius'),
    },
    positionOf(record.get('position')),
  );
  record.set('place', place.place);
  record.set('distance', place.distance === null ? 0 : place.distance);
}

/**
 * The rounds of a community's board (the shift under way at `now`, or
 * `day`'s) by the phones' own rule (src/domain/tourBoard.ts, compiled):
 * its tours, the walks of the board's reach and their scans, read here.
 */
function readBoard(app, community, now, day) {
  const board = require(`${__hooks}/lib/generated/tour_board.js`);
  let zone = require(`${__hooks}/lib/generated/quiet_hours.js`).DEFAULT_CALL_SETTINGS.timeZone;
  try {
    const settings = app.findFirstRecordByFilter('call_settings', 'community = {:c}', { c: community });
    if (settings.getString('time_zone')) zone = settings.getString('time_zone');
  } catch {
    // none saved: the default zone
  }
  const pbDate = (ms) => new Date(ms).toISOString().replace('T', ' ');
  const tours = app.findRecordsByFilter('tours', 'community = {:c}', 'name', 0, 0, { c: community }).map((t) => ({
    id: t.id,
    name: t.getString('name'),
    checkpoints: t.getStringSlice('checkpoints'),
    start: t.getString('start'),
    end: t.getString('end'),
    every_minutes: t.getInt('every_minutes'),
    round_minutes: t.getInt('round_minutes'),
    ordered: t.getBool('ordered'),
    active: t.getBool('active'),
    created: t.getString('created'),
    updated: t.getString('updated'),
  }));
  // The walks of the rounds the board can list (the board's own reach), whatever the history.
  const options = { zone: zone, now: now, day: day };
  const reach = board.boardReach(tours, options);
  const walks = app
    .findRecordsByFilter(
      'tour_walks',
      'community = {:c} && round_start >= {:from} && round_start <= {:to}',
      'round_start',
      0,
      0,
      { c: community, from: pbDate(reach.from), to: pbDate(reach.to) },
    )
    .map((w) => ({
      id: w.id,
      tour: w.getString('tour'),
      officer: w.getString('officer'),
      round_start: w.getString('round_start'),
      started_at: w.getString('started_at'),
      ended_at: w.getString('ended_at'),
      end_reason: w.getString('end_reason'),
    }));
  const scans =
    walks.length === 0
      ? []
      : app.findAllRecords('checkpoint_scans', $dbx.in('walk', ...walks.map((w) => w.id))).map((s) => ({
          id: s.id,
          walk: s.getString('walk'),
          checkpoint: s.getString('checkpoint'),
          scanned_at: s.getString('scanned_at'),
        }));
  return { zone: zone, rounds: board.roundsBoard(tours, walks, scans, options) };
}

/**
 * GET /api/scms/tour-rounds?day=YYYY-MM-DD: the rounds of a day of the
 * signed-in user's community and how each went, by the rule the phones use
 * (src/domain/tourBoard.ts, compiled): a day older than a phone's mirror,
 * or anything the server computes about tours, reads the same rounds the
 * same way.
 */
function tourRounds(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  const board = require(`${__hooks}/lib/generated/tour_board.js`);
  const me = respond.requireStaff(e);
  const community = me.getString('community');
  const dayText = String(e.request.url.query().get('day') || '');
  const day = board.dayMoment(dayText);
  const earliest = Date.UTC(2000, 0, 1);
  const latest = Date.now() + 366 * 24 * 60 * 60 * 1000;
  if (day === null || day < earliest || day > latest)
    throw respond.fail(400, 'day must be a date (YYYY-MM-DD) between 2000 and next year.', {
      day: { code: 'validation_invalid_value', message: 'Must be a date (YYYY-MM-DD).' },
    });
  const read = readBoard(e.app, community, Date.now(), day);
  const zone = read.zone;
  const rounds = read.rounds;
  return e.json(200, {
    day: dayText,
    zone: zone,
    rounds: rounds.map((r) => ({
      tour: { id: r.tour.id, name: r.tour.name },
      startsAt: new Date(r.round.startsAt).toISOString(),
      dueBy: new Date(r.round.dueBy).toISOString(),
      status: r.outcome.status,
      overdue: r.outcome.overdue,
      scanned: r.outcome.scanned,
      missed: r.outcome.missed,
      outOfOrder: r.outcome.outOfOrder,
      walks: r.walks,
    })),
  });
}

module.exports = {
  readBoard,
  tourRounds,
  giveCodes,
  keepCodes,
  refuseCheckpointDelete,
  checkTourCheckpoints,
  refuseTourDelete,
  checkScan,
};
