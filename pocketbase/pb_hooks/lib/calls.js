/// The call routes: placing a call to a resident (a job with attempts,
/// lib/call_jobs.js), and the provider's signed callbacks that follow it:
/// status, answering-machine detection, the key pressed at the <Gather>
/// (docs/product.md#calls-to-residents, docs/product.md#the-servers-routes).

const MAX_JSON_BYTES = 16 * 1024;
const MAX_FORM_BYTES = 64 * 1024;

function lib(name) {
  return require(`${__hooks}/lib/${name}.js`);
}

/** The record, or null when there is none (call_jobs.js uses it too). */
function findOrNull(app, collection, id) {
  try {
    return app.findRecordById(collection, id);
  } catch {
    return null;
  }
}

/** POST /api/scms/call-resident */
function callResident(e) {
  const { fail, requireStaff, readJsonObject } = lib('respond');
  const user = requireStaff(e);
  const request = lib('call_request').validateCallRequest(readJsonObject(e, MAX_JSON_BYTES));

  const twilio = lib('twilio_client');
  const jobs = lib('call_jobs');
  const config = twilio.telephonyConfig();
  if (config.missing.length > 0) {
    throw fail(503, 'Calling residents is not set up on this server (missing ' + config.missing.join(', ') + ').');
  }
  if (config.addressProblem !== '')
    throw fail(503, 'Calling residents is not set up on this server: ' + config.addressProblem);

  const communityId = user.getString('community');
  const house = findOrNull(e.app, 'houses', request.houseId);
  // Another community's home answers exactly like a missing one.
  if (!house || house.getString('community') !== communityId) throw fail(404, 'Home not found.');

  const concerns = request.concernIds.map(function (id) {
    const concern = findOrNull(e.app, 'concerns', id);
    return concern && concern.getString('community') === communityId ? concern : null;
  });
  if (concerns.indexOf(null) !== -1) {
    throw fail(400, 'One or more selected concerns do not exist.', {
      concerns: { code: 'validation_missing_rel_records', message: 'One or more selected concerns do not exist.' },
    });
  }

  const plan = jobs.phonePlan(e.app, house.id);
  if (plan.length === 0) throw fail(400, 'Primary phone number missing');
  const callable = plan.filter(function (p) {
    return !p.getBool('do_not_call');
  });
  if (callable.length === 0) {
    const message = lib('generated/call_history').CALL_HISTORY_WORDS.noCallableNumber;
    throw fail(400, message, { phones: { code: 'validation_do_not_call', message: message } });
  }

  const script = lib('generated/call_script');
  const community = e.app.findRecordById('communities', communityId);
  const text = script.composeScript(
    community.getString('name'),
    concerns.map(function (c) {
      return c.getString('say');
    }),
  );
  const callTwiml = jobs.callTwimlFor(config, text);
  // Checked before anything is written or dialled: Twilio would refuse it
  // (32018) after the home already showed the call as pending.
  if (callTwiml.length > twilio.MAX_INLINE_TWIML_CHARS) {
    const message =
      'The message is too long to call: ' +
      callTwiml.length +
      ' characters for the telephony provider, which accepts at most ' +
      twilio.MAX_INLINE_TWIML_CHARS +
      '. Select fewer concerns or shorten what they say.';
    throw fail(400, message, { concerns: { code: 'validation_call_too_long', message: message } });
  }

  // Quiet hours: the app asks 'It is 22:14 for the resident, within the
  // community's quiet hours (21:00–08:00). Call anyway?'
  // and sends override_quiet_hours: true for a yes.
  const settings = lib('call_settings').readCallSettings(e.app, communityId);
  const quietHours = lib('generated/quiet_hours');
  const quiet = quietHours.quietHoursAt(settings, Date.now());
  if (quiet.quiet && !request.overrideQuietHours) {
    const message = quietHours.quietHoursQuestion({
      localTime: quiet.localTime,
      quietStart: settings.quietStart,
      quietEnd: settings.quietEnd,
    });
    throw fail(409, message, {
      override_quiet_hours: {
        code: 'confirm_quiet_hours',
        message: message,
        local_time: quiet.localTime,
        quiet_start: settings.quietStart,
        quiet_end: settings.quietEnd,
        time_zone: settings.timeZone,
        quiet_hours_end: new Date(quiet.endsAt).toISOString(),
      },
    });
  }

  if (jobs.activeJob(e.app, house.id)) throw fail(409, 'This home is already being called. Wait for that call to end.');

  // The job, its first attempt (claimed) and the house's pending marker are
  // written together, before the provider is asked, so the first status
  // callback always finds them. The partial unique index on calls keeps a
  // second active job out even when two requests race past the check above.
  let created;
  try {
    e.app.runInTransaction(function (tx) {
      created = jobs.createJob(tx, {
        house: house,
        communityId: communityId,
        concernIds: request.concernIds,
        script: text,
        userId: user.id,
        plan: plan,
      });
    });
  } catch (err) {
    if (jobs.activeJob(e.app, house.id))
      throw fail(409, 'This home is already being called. Wait for that call to end.');
    throw err;
  }

  const placed = jobs.dialClaimed(e.app, config, created.attempt.id);
  if (!placed.ok) {
    if (placed.then.text) jobs.sendTextFallback(e.app, config, created.call.id);
    throw fail(502, placed.message);
  }
  // The number dialled first, and the do-not-call numbers passed over with
  // why, for the call sheet to say.
  const skipped = plan
    .filter(function (p) {
      return p.getBool('do_not_call');
    })
    .map(function (p) {
      return { to_number: p.getString('phone_number'), reason: jobs.DO_NOT_CALL_REASON };
    });
  return e.json(200, {
    code: 200,
    message: 'Call placed to the resident',
    call_id: created.call.id,
    to_number: created.attempt.getString('to_number'),
    skipped: skipped,
  });
}

/** Reads a provider callback posted to `which` route and checks its signature. → params */
function signedCallback(e, which) {
  const { fail, readForm } = lib('respond');
  const twilio = lib('twilio_client');
  const config = twilio.telephonyConfig();
  if (!config.authToken || !config.publicUrl || config.addressProblem !== '') {
    throw fail(503, 'Calling residents is not set up on this server.');
  }
  const params = readForm(e, MAX_FORM_BYTES);
  const signature = e.request.header.get('X-Twilio-Signature');
  // The URL is the one we gave the provider, not the one this request
  // arrived at: behind a proxy they differ, and the provider signed ours.
  // Also with or without the default port, as Twilio's own validator.
  const url = twilio.publicRouteUrl(config, which);
  if (!lib('generated/twilio_signature').validTwilioSignatureForUrl(config.authToken, url, params, signature)) {
    throw fail(403, 'The request signature is missing or invalid.');
  }
  if (typeof params.CallSid !== 'string' || params.CallSid === '') throw fail(400, 'CallSid is required.');
  return { params: params, config: config };
}

/**
 * The attempt (or, for calls placed before attempts existed, the call) with
 * this provider id. The provider may report "initiated" before the route
 * that dialled has stored the id it just got back, so an unknown id is
 * looked up a few more times (only signed requests get this far).
 */
function findBySid(app, sid) {
  for (let i = 0; i < 20; i++) {
    try {
      return { attempt: app.findFirstRecordByFilter('call_attempts', 'provider_call_id = {:sid}', { sid: sid }) };
    } catch {
      // not an attempt (yet)
    }
    try {
      return { call: app.findFirstRecordByFilter('calls', 'provider_call_id = {:sid}', { sid: sid }) };
    } catch {
      sleep(150);
    }
  }
  return null;
}

function twimlAnswer(e, twiml) {
  e.response.header().set('Content-Type', 'text/xml; charset=utf-8');
  return e.string(200, twiml);
}

/** POST /api/scms/call-status (the provider's status callback) */
function callStatus(e) {
  const { fail } = lib('respond');
  const statuses = lib('call_status');
  const jobs = lib('call_jobs');
  const { params, config } = signedCallback(e, 'status');
  const next = statuses.mapProviderStatus(params.CallStatus);
  if (next === '') throw fail(400, 'Unknown CallStatus.');

  const found = findBySid(e.app, params.CallSid);
  if (!found) throw fail(404, 'No call with this CallSid.');
  const errorCode = typeof params.ErrorCode === 'string' ? params.ErrorCode : '';

  let then = null;
  e.app.runInTransaction(function (tx) {
    if (found.attempt) {
      then = jobs.recordStatus(tx, found.attempt.id, {
        next: next,
        callStatus: String(params.CallStatus),
        duration: Number(params.CallDuration) || 0,
        answeredBy: typeof params.AnsweredBy === 'string' ? params.AnsweredBy : '',
        errorCode: errorCode,
      });
      return;
    }
    // A call from before attempts: its status only (read again inside the
    // transaction: two callbacks may race).
    const call = tx.findRecordById('calls', found.call.id);
    if (!statuses.canMove(call.getString('status'), next)) return;
    call.set('status', next);
    if (next === 'failed' && errorCode !== '') call.set('error', 'Provider error ' + errorCode);
    tx.save(call);
    if (statuses.isFinal(next)) jobs.clearPending(tx, call);
  });

  if (then && then.text) jobs.sendTextFallback(e.app, config, then.callId);
  // The home's next phone is due at once: dial it now rather than at the next cron minute.
  if (then && then.dueNow) jobs.runDueAttempts(e.app);
  return twimlAnswer(e, '<Response/>');
}

/**
 * POST /api/scms/call-status/amd: answering-machine detection's verdict
 * (async AMD, MachineDetection=DetectMessageEnd). For a machine, whose
 * greeting has now ended, the call's TwiML is replaced by the script alone,
 * so the message is recorded after the beep.
 */
function callAmd(e) {
  const { fail } = lib('respond');
  const { params, config } = signedCallback(e, 'amd');
  const found = findBySid(e.app, params.CallSid);
  if (!found || !found.attempt) throw fail(404, 'No call with this CallSid.');
  const answeredBy = typeof params.AnsweredBy === 'string' ? params.AnsweredBy.slice(0, 30) : '';
  let script = '';
  e.app.runInTransaction(function (tx) {
    const a = tx.findRecordById('call_attempts', found.attempt.id);
    a.set('answered_by', answeredBy);
    tx.save(a);
    if (a.getString('state') === 'placed') script = tx.findRecordById('calls', a.getString('call')).getString('script');
  });
  // A machine records the script after its beep; a fax machine is hung up on.
  const twiml = /^machine_end_/.test(answeredBy)
    ? lib('call_script').sayTwiml(script)
    : answeredBy === 'fax'
      ? '<Response><Hangup/></Response>'
      : '';
  if (twiml !== '' && script !== '') {
    const updated = lib('twilio_client').updateCall(config, params.CallSid, twiml);
    if (!updated.ok)
      e.app
        .logger()
        .warn(
          'scms: the call could not be changed after machine detection',
          'sid',
          params.CallSid,
          'detail',
          updated.detail,
        );
  }
  return e.noContent(204);
}

/** POST /api/scms/call-status/gather: the key pressed after the script; 1 acknowledges. */
function callGather(e) {
  const { fail } = lib('respond');
  const { params } = signedCallback(e, 'gather');
  const found = findBySid(e.app, params.CallSid);
  if (!found || !found.attempt) throw fail(404, 'No call with this CallSid.');
  const acknowledged = params.Digits === '1';
  if (acknowledged) {
    e.app.runInTransaction(function (tx) {
      const a = tx.findRecordById('call_attempts', found.attempt.id);
      a.set('acknowledged', true);
      tx.save(a);
      const call = tx.findRecordById('calls', a.getString('call'));
      call.set('acknowledged', true);
      tx.save(call);
    });
  }
  return twimlAnswer(e, lib('call_script').gatherReplyTwiml(acknowledged));
}

/**
 * POST /api/scms/call-retries/cancel `{h_id}`: a director or a manager stops
 * the retries of the home's call that waits for its next attempt (lib/
 * call_jobs.js cancelRetries). → the call and its attempts as they now are,
 * for the device's mirror.
 */
function cancelCallRetries(e) {
  const { fail, requireStaff, readJsonObject } = lib('respond');
  const user = requireStaff(e);
  const type = user.getString('type');
  if (type !== 'director' && type !== 'manager')
    throw fail(403, 'Only a director or a manager can cancel the retries of a call.');
  const body = readJsonObject(e, MAX_JSON_BYTES);
  const unknown = Object.keys(body).filter(function (name) {
    return name !== 'h_id';
  });
  if (unknown.length > 0) throw fail(400, 'Unknown field: ' + unknown[0].slice(0, 40) + '.');
  if (typeof body.h_id !== 'string' || !/^[a-z0-9]{15}$/.test(body.h_id)) {
    const message = 'h_id must be the id of a home.';
    throw fail(400, message, { h_id: { code: 'validation_invalid_value', message: message } });
  }
  const house = findOrNull(e.app, 'houses', body.h_id);
  // Another community's home answers exactly like a missing one.
  if (!house || house.getString('community') !== user.getString('community')) throw fail(404, 'Home not found.');

  let result = null;
  e.app.runInTransaction(function (tx) {
    result = lib('call_jobs').cancelRetries(tx, house.id, user.id);
  });
  if (result.problem === 'none') throw fail(409, 'This home has no call waiting to try again.');
  if (result.problem === 'calling')
    throw fail(
      409,
      'The home is being called right now. Its retries can be cancelled while it waits for the next try.',
    );
  return e.json(200, { code: 200, message: 'Retries cancelled', call: result.call, attempts: result.attempts });
}

/** POST /api/scms/call-jobs/run (superusers): dials what is due now, as the cron does every minute. */
function runJobs(e) {
  if (!e.hasSuperuserAuth()) throw lib('respond').fail(403, 'Only a superuser can run the call jobs.');
  return e.json(200, lib('call_jobs').runDueAttempts(e.app));
}

module.exports = {
  findOrNull: findOrNull,
  callResident: callResident,
  callStatus: callStatus,
  callAmd: callAmd,
  callGather: callGather,
  cancelCallRetries: cancelCallRetries,
  runJobs: runJobs,
};
