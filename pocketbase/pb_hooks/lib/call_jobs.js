/// A call as a job with attempts. The job is the `calls` record;
/// each dial is a `call_attempts` record that carries its own schedule
/// (`state`, `due_at`), so every decision survives a restart:
///
///   scheduled --claim--> dialling --provider took it--> placed --final status--> ended
///                \--phone now do-not-call / job over--> skipped
///
/// A dial happens only after its attempt was claimed (scheduled → dialling)
/// in a transaction, so two runners (the cron, a callback's kick, a second
/// server process) never dial the same attempt twice. An attempt found still
/// `dialling` after a restart may or may not have reached the provider: it is
/// ended as failed and never dialled again (calling a resident twice is worse
/// than going on to the next step).
///
/// After an attempt ends: answered or voicemail ends the job; busy and no
/// answer are retried on the same number up to `retries` times
/// `retryMinutes` apart; then the home's next phone (primary first, then
/// cell, home, business) is dialled; with nothing left the job ends with
/// the last outcome, and with the text fallback on the script is sent as a
/// text message to a cell phone. No attempt after the first starts in quiet
/// hours: it waits for their end.
///
/// A director or a manager may stop a job that waits for its next attempt
/// (cancelRetries): its scheduled attempts are skipped, the job ends with the
/// outcome of its last attempt, and the call keeps who stopped it and when.

const OUTCOME_OF_FINAL = { busy: 'busy', 'no-answer': 'no_answer', failed: 'failed', canceled: 'failed' };
const MAX_ERROR_LENGTH = 1000;
// An attempt left `dialling` this long was interrupted (a dial takes at most 20 s).
const STALE_DIALLING_MS = 60 * 1000;
// A placed call with no final status after this many settings minutes: its
// final callback was lost (or never delivered while the server was down), so
// the provider is asked how it ended. A message call lasts a minute or two.
const LOST_CALLBACK_MINUTES = 15;
const ACTIVE_FILTER = "house = {:house} && (progress = 'calling' || progress = 'waiting')";

function lib(name) {
  return require(`${__hooks}/lib/${name}.js`);
}

/** PocketBase's date text for UTC ms. */
function dateText(ms) {
  return new Date(ms).toISOString().replace('T', ' ');
}

function dateMs(text) {
  return text ? Date.parse(String(text).replace(' ', 'T')) : NaN;
}

/** How long a settings "minute" is: 60 s; tests shorten it (SCMS_CALL_MINUTE_SECONDS). */
function minuteMs() {
  const seconds = Number($os.getenv('SCMS_CALL_MINUTE_SECONDS') || '60');
  return (seconds > 0 ? seconds : 60) * 1000;
}

/** The house's phones in the order they are tried (phoneRank of src/domain/callHistory.ts; oldest first within a rank). */
function phonePlan(app, houseId) {
  const phones = app.findRecordsByFilter('phones', 'house = {:house}', 'created,id', 0, 0, { house: houseId });
  const phoneRank = lib('generated/call_history').phoneRank;
  const ranked = [];
  for (let i = 0; i < phones.length; i++) {
    const p = phones[i];
    ranked.push({ phone: p, i: i, rank: phoneRank({ primary: p.getBool('primary'), type: p.getString('type') }) });
  }
  ranked.sort(function (a, b) {
    return a.rank - b.rank || a.i - b.i;
  });
  return ranked.map(function (r) {
    return r.phone;
  });
}

function activeJob(app, houseId) {
  try {
    return app.findFirstRecordByFilter('calls', ACTIVE_FILTER, { house: houseId });
  } catch {
    return null;
  }
}

function attemptsOf(app, callId) {
  return app.findRecordsByFilter('call_attempts', 'call = {:call}', 'sequence', 0, 0, { call: callId });
}

function newAttempt(app, call, sequence, phone, state, fields) {
  const attempt = new Record(app.findCollectionByNameOrId('call_attempts'));
  attempt.set('call', call.id);
  attempt.set('house', call.getString('house'));
  attempt.set('community', call.getString('community'));
  attempt.set('sequence', sequence);
  attempt.set('phone', phone.id);
  attempt.set('to_number', phone.getString('phone_number'));
  attempt.set('phone_type', phone.getString('type'));
  attempt.set('state', state);
  Object.keys(fields || {}).forEach(function (name) {
    attempt.set(name, fields[name]);
  });
  app.save(attempt);
  return attempt;
}

/** The reason a do-not-call phone is passed over ('Call history' says it too: src/domain/callHistory.ts). */
const DO_NOT_CALL_REASON = lib('generated/call_history').CALL_HISTORY_WORDS.doNotCall;

/**
 * Writes a new job and its first attempt (claimed: `dialling`), plus a
 * skipped attempt for each do-not-call phone, inside `tx`; marks the house
 * pending. `job`: {house, communityId, concernIds, script, userId, plan}.
 * → {call, attempt}
 */
function createJob(tx, job) {
  const first = job.plan.filter(function (p) {
    return !p.getBool('do_not_call');
  })[0];
  const call = new Record(tx.findCollectionByNameOrId('calls'));
  call.set('house', job.house.id);
  call.set('community', job.communityId);
  call.set('concerns', job.concernIds);
  call.set('to_number', first.getString('phone_number'));
  call.set('script', job.script);
  call.set('status', 'queued');
  call.set('progress', 'calling');
  call.set('created_by', job.userId);
  tx.save(call);
  let sequence = 0;
  job.plan.forEach(function (phone) {
    if (phone.getBool('do_not_call'))
      newAttempt(tx, call, ++sequence, phone, 'skipped', { reason: DO_NOT_CALL_REASON });
  });
  const attempt = newAttempt(tx, call, ++sequence, first, 'dialling', { due_at: dateText(Date.now()) });
  const house = tx.findRecordById('houses', job.house.id);
  house.set('pending_call_concerns_ids', job.concernIds.join(','));
  tx.save(house);
  return { call: call, attempt: attempt };
}

function concernIdsOf(call) {
  const ids = call.get('concerns');
  const list = [];
  for (let i = 0; i < ids.length; i++) list.push(String(ids[i]));
  return list.join(',');
}

/** Clears the house's pending concern ids, but only while they are still this call's. */
function clearPending(tx, call) {
  try {
    const house = tx.findRecordById('houses', call.getString('house'));
    if (house.getString('pending_call_concerns_ids') === concernIdsOf(call)) {
      house.set('pending_call_concerns_ids', '');
      tx.save(house);
    }
  } catch {
    // the house is gone, and its calls with it
  }
}

/** Ends the job with `outcome`; → whether a text message is to be sent. */
function finishJob(tx, call, outcome, settings) {
  call.set('progress', 'done');
  call.set('outcome', outcome);
  tx.save(call);
  clearPending(tx, call);
  return settings.textFallback && outcome !== 'answered' && outcome !== 'voicemail' && !call.getBool('text_sent');
}

/**
 * Decides what follows the ended `attempt` of `call` (both fresh from `tx`).
 * → {text: bool, dueNow: bool}
 */
function afterAttempt(tx, call, attempt) {
  const settings = lib('call_settings').readCallSettings(tx, call.getString('community'));
  const outcome = attempt.getString('outcome');
  if (call.getString('progress') === 'done') return { text: false, dueNow: false };
  if (outcome === 'answered' || outcome === 'voicemail')
    return { text: finishJob(tx, call, outcome, settings), dueNow: false };

  const attempts = attemptsOf(tx, call.id);
  const tried = {};
  let sameNumber = 0;
  let last = 0;
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i];
    last = Math.max(last, a.getInt('sequence'));
    if (a.getString('state') === 'skipped') continue;
    tried[a.getString('to_number')] = true;
    if (a.getString('to_number') === attempt.getString('to_number')) sameNumber++;
  }
  const now = Date.now();
  let next = null;
  let due = now;
  if ((outcome === 'busy' || outcome === 'no_answer') && sameNumber - 1 < settings.retries) {
    next = attempt.getString('phone') ? lib('calls').findOrNull(tx, 'phones', attempt.getString('phone')) : null;
    due = now + settings.retryMinutes * minuteMs();
  }
  if (!next) {
    const plan = phonePlan(tx, call.getString('house'));
    next =
      plan.filter(function (p) {
        return !p.getBool('do_not_call') && !tried[p.getString('phone_number')];
      })[0] || null;
    due = now;
  }
  if (!next) return { text: finishJob(tx, call, outcome, settings), dueNow: false };

  // Retries never start in quiet hours: they wait for the end.
  const check = lib('call_settings').quietHours().quietHoursAt(settings, due);
  if (check.quiet) due = check.endsAt;
  newAttempt(tx, call, last + 1, next, 'scheduled', { due_at: dateText(due) });
  call.set('progress', 'waiting');
  call.set('to_number', next.getString('phone_number'));
  tx.save(call);
  return { text: false, dueNow: due <= now };
}

/** The TwiML a person hears on this server. */
function callTwimlFor(config, script) {
  return lib('call_script').callTwiml(script, lib('twilio_client').publicRouteUrl(config, 'gather'));
}

/**
 * Dials the claimed attempt (state `dialling`) and records the provider's
 * answer. → the placeCall result, with `then` ({text}). A refusal of the
 * request (credentials, account, an unreachable provider) ends the attempt
 * and the job as failed: no other number would fare better.
 */
function dialClaimed(app, config, attemptId) {
  const twilio = lib('twilio_client');
  const attempt = app.findRecordById('call_attempts', attemptId);
  const call = app.findRecordById('calls', attempt.getString('call'));
  const placed = twilio.placeCall(
    config,
    attempt.getString('to_number'),
    callTwimlFor(config, call.getString('script')),
  );
  let then = { text: false, dueNow: false };
  app.runInTransaction(function (tx) {
    const a = tx.findRecordById('call_attempts', attemptId);
    const c = tx.findRecordById('calls', a.getString('call'));
    if (placed.ok) {
      a.set('provider_call_id', placed.sid);
      a.set('state', 'placed');
      c.set('provider_call_id', placed.sid);
      tx.save(a);
      tx.save(c);
      return;
    }
    a.set('state', 'ended');
    a.set('outcome', 'failed');
    a.set('ended_at', dateText(Date.now()));
    a.set('reason', placed.detail.slice(0, MAX_ERROR_LENGTH));
    tx.save(a);
    c.set('status', 'failed');
    c.set('error', placed.detail.slice(0, MAX_ERROR_LENGTH));
    const settings = lib('call_settings').readCallSettings(tx, c.getString('community'));
    then = { text: finishJob(tx, c, 'failed', settings), dueNow: false };
  });
  placed.then = then;
  return placed;
}

/**
 * Claims a scheduled attempt that is due, in a transaction: → its id, or ''
 * when another runner has it, the job is over, or quiet hours move it on.
 */
function claim(app, attemptId, now) {
  let claimed = '';
  app.runInTransaction(function (tx) {
    const a = tx.findRecordById('call_attempts', attemptId);
    if (a.getString('state') !== 'scheduled' || dateMs(a.getString('due_at')) > now) return;
    const call = tx.findRecordById('calls', a.getString('call'));
    if (call.getString('progress') === 'done') {
      a.set('state', 'skipped');
      a.set('reason', 'Not called: the call was already over.');
      tx.save(a);
      return;
    }
    const settings = lib('call_settings').readCallSettings(tx, call.getString('community'));
    const check = lib('call_settings').quietHours().quietHoursAt(settings, now);
    if (check.quiet) {
      a.set('due_at', dateText(check.endsAt));
      tx.save(a);
      return;
    }
    const phone = a.getString('phone') ? lib('calls').findOrNull(tx, 'phones', a.getString('phone')) : null;
    if (phone && phone.getBool('do_not_call')) {
      // Marked do-not-call since the job began.
      a.set('state', 'skipped');
      a.set('reason', DO_NOT_CALL_REASON);
      tx.save(a);
      a.set('outcome', '');
      afterAttempt(tx, call, a);
      return;
    }
    a.set('state', 'dialling');
    tx.save(a);
    call.set('status', 'queued');
    call.set('progress', 'calling');
    call.set('error', '');
    call.set('to_number', a.getString('to_number'));
    tx.save(call);
    claimed = a.id;
  });
  return claimed;
}

/** Sends the script as a text message to the home's first cell phone that may be called (at most once per job). */
function sendTextFallback(app, config, callId) {
  let to = '';
  let script = '';
  app.runInTransaction(function (tx) {
    const call = tx.findRecordById('calls', callId);
    if (call.getBool('text_sent')) return;
    const cell = phonePlan(tx, call.getString('house')).filter(function (p) {
      return p.getString('type') === 'cell' && !p.getBool('do_not_call');
    })[0];
    // Marked before sending: a failure is noted, never sent twice.
    call.set('text_sent', true);
    if (!cell) call.set('error', 'No text message: the home has no cell phone that may be called.');
    tx.save(call);
    if (cell) {
      to = cell.getString('phone_number');
      script = call.getString('script');
    }
  });
  if (to === '') return;
  const sent = lib('twilio_client').sendText(config, to, script);
  if (!sent.ok) {
    const call = app.findRecordById('calls', callId);
    call.set('error', ('Text message not sent: ' + sent.detail).slice(0, MAX_ERROR_LENGTH));
    app.save(call);
  }
}

/**
 * Ends attempts interrupted while dialling (see the header), then dials every
 * due attempt. Called by the cron every minute, by a callback whose attempt
 * made the next one due now, and by POST /api/scms/call-jobs/run (superusers).
 * Also asks the provider how calls ended whose final callback never came.
 * → {dialled, interrupted, recovered}
 */
function runDueAttempts(app) {
  const config = lib('twilio_client').telephonyConfig();
  const result = { dialled: 0, interrupted: 0, recovered: 0 };
  if (config.missing.length > 0 || config.addressProblem !== '') return result;

  const stale = app.findRecordsByFilter(
    'call_attempts',
    "state = 'dialling' && provider_call_id = '' && updated < {:before}",
    'updated',
    50,
    0,
    {
      before: dateText(Date.now() - STALE_DIALLING_MS),
    },
  );
  for (let i = 0; i < stale.length; i++) {
    const id = stale[i].id;
    let then = null;
    app.runInTransaction(function (tx) {
      const a = tx.findRecordById('call_attempts', id);
      if (a.getString('state') !== 'dialling' || a.getString('provider_call_id') !== '') return;
      a.set('state', 'ended');
      a.set('outcome', 'failed');
      a.set('ended_at', dateText(Date.now()));
      a.set(
        'reason',
        'The server stopped while placing this call; it was not dialled again, so the resident is never called twice.',
      );
      tx.save(a);
      then = afterAttempt(tx, tx.findRecordById('calls', a.getString('call')), a);
    });
    if (then) result.interrupted++;
    if (then && then.text) sendTextFallback(app, config, stale[i].getString('call'));
  }

  // Calls whose final status never came: the provider says how they ended.
  const silent = app.findRecordsByFilter('call_attempts', "state = 'placed' && updated < {:before}", 'updated', 20, 0, {
    before: dateText(Date.now() - LOST_CALLBACK_MINUTES * minuteMs()),
  });
  const statuses = lib('call_status');
  for (let i = 0; i < silent.length; i++) {
    const found = lib('twilio_client').fetchCall(config, silent[i].getString('provider_call_id'));
    const next = found.ok ? statuses.mapProviderStatus(found.status) : '';
    if (next === '' || !statuses.isFinal(next)) continue;
    let then = null;
    app.runInTransaction(function (tx) {
      then = recordStatus(tx, silent[i].id, {
        next: next,
        callStatus: found.status,
        duration: found.duration,
        answeredBy: found.answeredBy,
        errorCode: '',
      });
    });
    result.recovered++;
    if (then && then.text) sendTextFallback(app, config, then.callId);
  }

  // Each pass dials what is due; a refusal may make the next phone due at once.
  for (let pass = 0; pass < 10; pass++) {
    const now = Date.now();
    const due = app.findRecordsByFilter('call_attempts', "state = 'scheduled' && due_at <= {:now}", 'due_at', 20, 0, {
      now: dateText(now),
    });
    if (due.length === 0) break;
    for (let i = 0; i < due.length; i++) {
      const id = claim(app, due[i].id, now);
      if (id === '') continue;
      const placed = dialClaimed(app, config, id);
      result.dialled++;
      if (placed.then.text) sendTextFallback(app, config, due[i].getString('call'));
    }
  }
  return result;
}

/**
 * Records a provider status for `attemptId` (in `tx`) and, when it is final,
 * decides what follows. `info`: {next (our status), callStatus, duration,
 * answeredBy, errorCode}. → {text, dueNow, callId}
 */
function recordStatus(tx, attemptId, info) {
  const statuses = lib('call_status');
  const a = tx.findRecordById('call_attempts', attemptId);
  const call = tx.findRecordById('calls', a.getString('call'));
  const result = { text: false, dueNow: false, callId: call.id };
  // The job's live status follows its current attempt only.
  if (
    call.getString('provider_call_id') === a.getString('provider_call_id') &&
    statuses.canMove(call.getString('status'), info.next)
  ) {
    call.set('status', info.next);
    if (info.next === 'failed' && info.errorCode)
      call.set('error', ('Provider error ' + info.errorCode).slice(0, MAX_ERROR_LENGTH));
    tx.save(call);
  }
  if (a.getString('state') === 'ended' || a.getString('state') === 'skipped') return result;
  if (info.answeredBy) a.set('answered_by', info.answeredBy);
  a.set('provider_status', info.callStatus);
  if (info.next === 'in-progress' && !a.getString('started_at')) a.set('started_at', dateText(Date.now()));
  if (!statuses.isFinal(info.next)) {
    tx.save(a);
    return result;
  }
  const answeredBy = a.getString('answered_by');
  let outcome = OUTCOME_OF_FINAL[info.next] || 'answered';
  // A fax machine takes no message: the number is no way to reach the resident.
  if (info.next === 'completed')
    outcome = answeredBy === 'fax' ? 'failed' : /^machine/.test(answeredBy) ? 'voicemail' : 'answered';
  a.set('state', 'ended');
  a.set('outcome', outcome);
  a.set('ended_at', dateText(Date.now()));
  a.set('duration', info.duration > 0 ? info.duration : 0);
  if (info.errorCode) a.set('reason', 'Provider error ' + info.errorCode);
  if (answeredBy === 'fax') a.set('reason', 'A fax machine answered.');
  tx.save(a);
  const then = afterAttempt(tx, tx.findRecordById('calls', call.id), a);
  result.text = then.text;
  result.dueNow = then.dueNow;
  return result;
}

/** Why an attempt was never dialled after its retries were cancelled ('Call history' shows it: src/domain/callHistory.ts). */
const RETRIES_CANCELLED_REASON = lib('generated/call_history').CALL_HISTORY_WORDS.retriesCancelledReason;

/**
 * Stops the job of `houseId` that waits for its next attempt, inside `tx`:
 * its scheduled attempts are skipped, it ends with the outcome of its last
 * dialled attempt, and `userId` and now are kept as who cancelled and when.
 * No text message follows: a person chose to stop reaching the resident.
 * → {call, attempts} (fresh), or {problem} when the home has no job waiting
 * ('none') or one being dialled right now ('calling'): that attempt's end
 * decides what follows, and its retries can be cancelled once it waits.
 */
function cancelRetries(tx, houseId, userId) {
  const call = activeJob(tx, houseId);
  if (!call) return { problem: 'none' };
  if (call.getString('progress') !== 'waiting') return { problem: 'calling' };
  const now = dateText(Date.now());
  const attempts = attemptsOf(tx, call.id);
  let outcome = '';
  for (let i = 0; i < attempts.length; i++) {
    const a = attempts[i];
    if (a.getString('state') === 'ended' && a.getString('outcome') !== '') outcome = a.getString('outcome');
    // A claimed attempt would make the job 'calling'; only scheduled ones wait.
    if (a.getString('state') !== 'scheduled') continue;
    a.set('state', 'skipped');
    a.set('reason', RETRIES_CANCELLED_REASON);
    tx.save(a);
  }
  call.set('progress', 'done');
  call.set('outcome', outcome || 'failed');
  call.set('retries_cancelled_by', userId);
  call.set('retries_cancelled_at', now);
  tx.save(call);
  clearPending(tx, call);
  return { call: call, attempts: attemptsOf(tx, call.id) };
}

module.exports = {
  RETRIES_CANCELLED_REASON: RETRIES_CANCELLED_REASON,
  cancelRetries: cancelRetries,
  DO_NOT_CALL_REASON: DO_NOT_CALL_REASON,
  phonePlan: phonePlan,
  activeJob: activeJob,
  createJob: createJob,
  callTwimlFor: callTwimlFor,
  dialClaimed: dialClaimed,
  runDueAttempts: runDueAttempts,
  recordStatus: recordStatus,
  sendTextFallback: sendTextFallback,
  clearPending: clearPending,
};
