/// Push notifications, the server's half in PocketBase (hooks in push.pb.js;
/// the collections in pb_migrations/1765700000_duty_and_alerts.js): who is
/// told of what, as `notifications` records that the sender
/// (server/push/sender.ts) delivers; which push services a browser
/// subscription may name; the VAPID public key browsers subscribe with.
/// Loaded with require() inside each handler (pooled VMs).

/** The public push services of Chrome, Firefox, Safari and Edge (server/push/hosts.ts holds the same list). */
const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'web.push.apple.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

/** Written by server/push/vapid.ts, inside the data folder so that backups carry it. */
const VAPID_FILE = 'vapid.json';

/** A report older than this when created is history (a superuser's `original_created`: the seed, an import), told to nobody. */
const HISTORY_MS = 60 * 60 * 1000;

// ---- the public key ------------------------------------------------------------------

/** GET /api/scms/push/key → {publicKey}: the applicationServerKey a signed-in staff member's browser subscribes with. */
function publicKeyRoute(e) {
  const respond = require(`${__hooks}/lib/respond.js`);
  respond.requireStaff(e);
  let keys;
  try {
    keys = JSON.parse(toString($os.readFile(`${e.app.dataDir()}/${VAPID_FILE}`)));
  } catch {
    keys = null;
  }
  if (!keys || typeof keys.publicKey !== 'string' || keys.publicKey === '')
    // The sender makes the keys when it starts (server/push/cli.ts).
    throw respond.fail(503, 'Push notifications are not set up on this server yet.');
  return e.json(200, { publicKey: keys.publicKey });
}

// ---- subscriptions: where the server may send ------------------------------------------

function hostEntries() {
  const configured = String($os.getenv('SCMS_PUSH_HOSTS') || '').trim();
  const list = configured === '' ? DEFAULT_PUSH_HOSTS : configured.split(',');
  const entries = [];
  for (const raw of list) {
    const m = /^(\*\.)?([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(String(raw).trim().toLowerCase());
    if (m) entries.push({ wildcard: m[1] !== undefined, host: m[2], port: m[3] === undefined ? '' : m[3] });
  }
  return entries;
}

/**
 * '' when the server may POST to `endpoint`, else why not. The server sends
 * to whatever a browser handed it: without this, any signed-in user could
 * have it send requests to an internal address. SCMS_PUSH_HOSTS lists
 * `host`, `*.domain` or `host:port`; https on its default port only, unless
 * the entry names the port (then http too: the test stand-in on 127.0.0.1).
 */
function endpointProblem(endpoint) {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(endpoint);
  if (!m) return 'Must be the address of a push service.';
  const scheme = m[1].toLowerCase();
  const authority = m[2].toLowerCase();
  if (scheme !== 'https' && scheme !== 'http') return 'Must be the address of a push service.';
  if (authority.indexOf('@') >= 0) return 'Must not carry a user name or password.';
  const hp = /^([a-z0-9.-]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/.exec(authority);
  if (!hp) return 'Must be the address of a push service.';
  const host = hp[1];
  const port = hp[2] !== undefined ? hp[2] : scheme === 'https' ? '443' : '80';
  let hostKnown = false;
  for (const entry of hostEntries()) {
    if (entry.port !== '') {
      if (entry.host === host && entry.port === port) return '';
      continue;
    }
    const suffix = `.${entry.host}`;
    const matches = entry.wildcard
      ? host.length > suffix.length && host.slice(host.length - suffix.length) === suffix
      : host === entry.host;
    if (matches) {
      hostKnown = true;
      if (scheme === 'https' && port === '443') return '';
    }
  }
  if (hostKnown) return 'Must be an https address on the default port.';
  return `The push service ${host} is not one this server sends to (SCMS_PUSH_HOSTS).`;
}

/**
 * A subscription's create: its endpoint must be a push service's, and its
 * keys a browser's (an uncompressed P-256 point, 65 bytes, and a 16-byte
 * auth secret, base64url as PushSubscription.toJSON() gives them). The
 * schema's patterns say the alphabet; this says the sizes, so that a
 * subscription nobody could encrypt for is never kept.
 */
function checkSubscription(e) {
  const record = e.record;
  const errors = {};
  const endpointIssue = endpointProblem(record.getString('endpoint'));
  if (endpointIssue !== '') errors.endpoint = new ValidationError('validation_push_endpoint', endpointIssue);
  if (!/^B[A-Za-z0-9_-]{86}$/.test(record.getString('p256dh')))
    errors.p256dh = new ValidationError(
      'validation_push_key',
      "Must be the browser's P-256 public key (65 bytes, base64url).",
    );
  if (!/^[A-Za-z0-9_-]{22}$/.test(record.getString('auth')))
    errors.auth = new ValidationError(
      'validation_push_key',
      "Must be the browser's auth secret (16 bytes, base64url).",
    );
  if (Object.keys(errors).length > 0) throw new BadRequestError('Failed to create record.', errors);
}

// ---- who is told ---------------------------------------------------------------------

function fullName(app, userId) {
  try {
    const user = app.findRecordById('users', userId);
    return `${user.getString('first_name')} ${user.getString('last_name')}`.trim();
  } catch {
    return 'an officer';
  }
}

/** The community's time zone (its call settings, as the tour rounds read it: lib/tours.js), else the default. */
function zoneOf(app, community) {
  let zone = require(`${__hooks}/lib/generated/quiet_hours.js`).DEFAULT_CALL_SETTINGS.timeZone;
  try {
    const settings = app.findFirstRecordByFilter('call_settings', 'community = {:c}', { c: community });
    if (settings.getString('time_zone')) zone = settings.getString('time_zone');
  } catch {
    // none saved: the default zone
  }
  return zone;
}

/** '2026-12-14 21:04 (America/New_York)': a stored date in the community's zone; '' for none. */
function localTime(app, community, stored) {
  if (!stored) return '';
  const ms = Date.parse(String(stored).replace(' ', 'T'));
  if (isNaN(ms)) return '';
  const zone = zoneOf(app, community);
  const offset = require(`${__hooks}/lib/generated/quiet_hours.js`).offsetAt(zone, ms);
  return `${new Date(ms + offset * 60000).toISOString().slice(0, 16).replace('T', ' ')} (${zone})`;
}

/** The map link the app shows for a position (src/domain/whereAndWhen.ts, positionMapUrl). */
function mapUrl(position) {
  const lat = position.latitude.toFixed(6);
  const lon = position.longitude.toFixed(6);
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=18/${lat}/${lon}`;
}

function directorsAndManagers(app, community, except) {
  return app
    .findRecordsByFilter(
      'users',
      "community = {:c} && (type = 'director' || type = 'manager') && id != {:x}",
      '',
      0,
      0,
      { c: community, x: except },
    )
    .map((user) => user.id);
}

function muted(app, userId, kind) {
  try {
    const prefs = app.findFirstRecordByFilter('notification_prefs', 'user = {:u}', { u: userId });
    return Array.from(prefs.getStringSlice('muted')).indexOf(kind) >= 0;
  } catch {
    return false; // no preferences: everything that concerns them
  }
}

/**
 * One `notifications` record for each recipient who has not muted the kind:
 * 'pending' for the sender, or 'no_subscription' for a user with no browser
 * subscribed (kept for the record). The unique index on (user, kind, source)
 * makes a repeat of the same event impossible; a refused repeat is skipped.
 */
function notify(app, recipients, message) {
  const collection = app.findCachedCollectionByNameOrId('notifications');
  const seen = {};
  for (const userId of recipients) {
    if (!userId || seen[userId]) continue;
    seen[userId] = true;
    if (muted(app, userId, message.kind)) continue;
    const subscribed = app.findRecordsByFilter('push_subscriptions', 'user = {:u}', '', 1, 0, { u: userId }).length > 0;
    const record = new Record(collection);
    record.set('community', message.community);
    record.set('user', userId);
    record.set('kind', message.kind);
    record.set('title', message.title.slice(0, 120));
    record.set('body', message.body.slice(0, 500));
    record.set('url', message.url);
    record.set('source', message.source);
    record.set('state', subscribed ? 'pending' : 'no_subscription');
    record.set('attempts', 0);
    try {
      app.save(record);
    } catch (err) {
      let repeat;
      try {
        app.findFirstRecordByFilter('notifications', 'user = {:u} && kind = {:k} && source = {:s}', {
          u: userId,
          k: message.kind,
          s: message.source,
        });
        repeat = true;
      } catch {
        repeat = false;
      }
      if (!repeat) throw err;
    }
  }
}

/** Runs `make`; a failure is logged, never the user's: their record is saved already. */
function safely(e, what, make) {
  try {
    make();
  } catch (err) {
    e.app.logger().error('scms push: notifications not made', 'for', what, 'id', e.record.id, 'error', String(err));
  }
}

/**
 * A panic or a missed check-in: the officers on duty in the community and
 * its directors and managers, never the alert's own officer.
 */
function alertCreated(e) {
  safely(e, 'alert', () => {
    const app = e.app;
    const alert = e.record;
    const community = alert.getString('community');
    const officer = alert.getString('officer');
    const kind = alert.getString('kind') === 'missed_check_in' ? 'missed_check_in' : 'panic';
    const onDuty = app
      .findRecordsByFilter('duty_shifts', "community = {:c} && ended_at = '' && officer != {:o}", '', 0, 0, {
        c: community,
        o: officer,
      })
      .map((shift) => shift.getString('officer'));
    const name = fullName(app, officer);
    const when = localTime(app, community, alert.getString('raised_at') || alert.getString('created'));
    const position = require(`${__hooks}/lib/position.js`).positionOf(alert.get('position'));
    const body = [
      kind === 'panic' ? `Pressed Panic at ${when}.` : `Did not answer the check-in; raised at ${when}.`,
      position ? `Map: ${mapUrl(position)}` : 'No position.',
    ].join(' ');
    notify(app, onDuty.concat(directorsAndManagers(app, community, officer)), {
      community: community,
      kind: kind,
      title: `${kind === 'panic' ? 'Panic' : 'Missed check-in'}: ${name}`,
      body: body,
      url: `/alerts/${alert.id}`,
      source: alert.id,
    });
  });
}

/** A report with an injury or EMS/PBSO called: the community's directors and managers, not its author. */
function reportCreated(e) {
  safely(e, 'report', () => {
    const app = e.app;
    const report = e.record;
    const created = Date.parse(report.getString('created').replace(' ', 'T'));
    if (!isNaN(created) && created < Date.now() - HISTORY_MS) return;
    const community = report.getString('community');
    const author = report.getString('created_by');
    const injury = report.getBool('injury');
    const what =
      injury && report.getBool('ems_pbso') ? 'Injury, EMS/PBSO called' : injury ? 'Injury' : 'EMS/PBSO called';
    const narrative = report.getString('narative');
    notify(app, directorsAndManagers(app, community, author), {
      community: community,
      kind: 'injury_report',
      title: `${what}: report by ${fullName(app, author)}`,
      body: [
        `${report.getString('type').replace(/_/g, ' ')}, ${localTime(app, community, report.getString('incident_time'))}.`,
        narrative.length > 200 ? `${narrative.slice(0, 199)}…` : narrative,
      ].join(' '),
      // The app has no screen for one report; the list shows it first.
      url: '/reports',
      source: report.id,
    });
  });
}

/** A call the resident acknowledged (pressed 1: lib/calls.js callGather): the staff member who placed it. */
function callUpdated(e) {
  const call = e.record;
  if (!call.getBool('acknowledged') || call.original().getBool('acknowledged')) return;
  safely(e, 'call', () => {
    const app = e.app;
    let address;
    try {
      const house = app.findRecordById('houses', call.getString('house'));
      address = [house.getString('address'), house.getString('apt')].filter((part) => part !== '').join(', ');
    } catch {
      address = '';
    }
    notify(app, [call.getString('created_by')], {
      community: call.getString('community'),
      kind: 'call_acknowledged',
      title: `Call acknowledged${address ? `: ${address}` : ''}`,
      body: `The resident at ${call.getString('to_number')} pressed 1: the message was heard.`,
      url: '/homes',
      source: call.id,
    });
  });
}

/** How long after a round was missed it is still told (a server started later does not tell a night's old rounds). */
const MISSED_ROUND_TOLD_WITHIN_MS = 6 * 60 * 60 * 1000;

/**
 * Missed tour rounds of the shift under way, by the phones' own rule
 * (lib/tours.js readBoard): each told once to the community's directors and
 * managers and the officers on duty (its source is the round's own id, so a
 * later run tells nobody twice). Run by the cron every five minutes.
 */
function notifyMissedRounds(app, now) {
  const tours = require(`${__hooks}/lib/tours.js`);
  const communities = {};
  for (const tour of app.findRecordsByFilter('tours', 'active = true', '', 0, 0))
    communities[tour.getString('community')] = true;
  let told = 0;
  for (const community of Object.keys(communities)) {
    const board = tours.readBoard(app, community, now, undefined);
    for (const entry of board.rounds) {
      if (entry.outcome.status !== 'missed') continue;
      // Missed once its minutes have passed again after it was due (src/domain/tourRounds.ts).
      const missedAt = entry.round.dueBy + entry.tour.round_minutes * 60 * 1000;
      if (now - missedAt > MISSED_ROUND_TOLD_WITHIN_MS) continue;
      const source = $security.md5(`${entry.tour.id}:${entry.round.startsAt}`).slice(0, 15);
      const known = app.findRecordsByFilter('notifications', 'kind = "missed_round" && source = {:s}', '', 1, 0, {
        s: source,
      });
      if (known.length > 0) continue;
      const onDuty = app
        .findRecordsByFilter('duty_shifts', "community = {:c} && ended_at = ''", '', 0, 0, { c: community })
        .map((shift) => shift.getString('officer'));
      const when = localTime(app, community, new Date(entry.round.startsAt).toISOString().replace('T', ' '));
      notify(app, directorsAndManagers(app, community, '').concat(onDuty), {
        community: community,
        kind: 'missed_round',
        title: `Missed round: ${entry.tour.name}`,
        body: `The round of ${when} was not walked.`,
        url: '/tours',
        source: source,
      });
      told++;
    }
  }
  return told;
}

module.exports = {
  publicKeyRoute: publicKeyRoute,
  endpointProblem: endpointProblem,
  checkSubscription: checkSubscription,
  alertCreated: alertCreated,
  reportCreated: reportCreated,
  callUpdated: callUpdated,
  notify: notify,
  notifyMissedRounds: notifyMissedRounds,
};
