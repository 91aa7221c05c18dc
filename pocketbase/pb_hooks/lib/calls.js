/// The two call routes: placing a call to a resident, and the provider's
/// status callbacks that follow it (DESIGN.md "Backend", spec §7).

const MAX_JSON_BYTES = 16 * 1024;
const MAX_FORM_BYTES = 64 * 1024;
const MAX_ERROR_LENGTH = 1000; // the calls.error field's limit

function lib(name) {
  return require(`${__hooks}/lib/${name}.js`);
}

function findOrNull(app, collection, id) {
  try {
    return app.findRecordById(collection, id);
  } catch {
    return null;
  }
}

/** The phone to call: the primary one, else the oldest. */
function phoneToCall(app, houseId) {
  const phones = app.findRecordsByFilter('phones', 'house = {:house}', 'created,id', 0, 0, { house: houseId });
  const primary = phones.filter(function (p) {
    return p.getBool('primary');
  })[0];
  return primary || phones[0] || null;
}

/** Clears the house's pending concern ids, but only while they are still
 *  `ids`: a newer call may have replaced them. */
function clearPendingIfStill(app, houseId, ids) {
  const house = findOrNull(app, 'houses', houseId);
  if (house && house.getString('pending_call_concerns_ids') === ids) {
    house.set('pending_call_concerns_ids', '');
    app.save(house);
  }
}

function concernIdsOf(call) {
  // A relation field holds an array of ids; join() gives the house format.
  const ids = call.get('concerns');
  const list = [];
  for (let i = 0; i < ids.length; i++) list.push(String(ids[i]));
  return list.join(',');
}

/** POST /api/scms/call-resident */
function callResident(e) {
  const { fail, requireStaff, readJsonObject } = lib('respond');
  const user = requireStaff(e);
  const request = lib('call_request').validateCallRequest(readJsonObject(e, MAX_JSON_BYTES));

  const twilio = lib('twilio_client');
  const config = twilio.telephonyConfig();
  if (config.missing.length > 0) {
    throw fail(503, 'Calling residents is not set up on this server (missing ' + config.missing.join(', ') + ').');
  }
  if (config.addressProblem !== '') throw fail(503, 'Calling residents is not set up on this server: ' + config.addressProblem);

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

  const phone = phoneToCall(e.app, house.id);
  if (!phone) throw fail(400, 'Primary phone number missing');

  const script = lib('generated/call_script');
  const twiml = lib('call_script');
  const community = e.app.findRecordById('communities', communityId);
  const text = script.composeScript(
    community.getString('name'),
    concerns.map(function (c) {
      return c.getString('say');
    }),
  );
  const pendingIds = request.concernIds.join(',');
  const callTwiml = twiml.sayTwiml(text);
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

  // The record and the house's pending marker are written together, before
  // the provider is asked, so the first status callback always finds them.
  const call = new Record(e.app.findCollectionByNameOrId('calls'));
  e.app.runInTransaction(function (tx) {
    call.set('house', house.id);
    call.set('community', communityId);
    call.set('concerns', request.concernIds);
    call.set('to_number', phone.getString('phone_number'));
    call.set('script', text);
    call.set('status', 'queued');
    call.set('created_by', user.id);
    tx.save(call);
    const fresh = tx.findRecordById('houses', house.id);
    fresh.set('pending_call_concerns_ids', pendingIds);
    tx.save(fresh);
  });

  const placed = twilio.placeCall(config, phone.getString('phone_number'), callTwiml);
  if (!placed.ok) {
    e.app.runInTransaction(function (tx) {
      const failed = tx.findRecordById('calls', call.id);
      failed.set('status', 'failed');
      failed.set('error', placed.detail.slice(0, MAX_ERROR_LENGTH));
      tx.save(failed);
      clearPendingIfStill(tx, house.id, pendingIds);
    });
    throw fail(502, placed.message);
  }

  const saved = e.app.findRecordById('calls', call.id);
  saved.set('provider_call_id', placed.sid);
  e.app.save(saved);
  return e.json(200, { code: 200, message: 'Call placed to the resident', call_id: call.id });
}

/**
 * The call with this provider id. The provider may report "initiated" before
 * call-resident has stored the id it just got back, so an unknown id is looked
 * up a few more times (only signed requests get this far).
 */
function findCallBySid(app, sid) {
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return app.findFirstRecordByFilter('calls', 'provider_call_id = {:sid}', { sid: sid });
    } catch {
      sleep(150);
    }
  }
  return null;
}

/** POST /api/scms/call-status (the provider's status callback) */
function callStatus(e) {
  const { fail, readForm } = lib('respond');
  const twilio = lib('twilio_client');
  const statuses = lib('call_status');
  const config = twilio.telephonyConfig();
  if (!config.authToken || !config.publicUrl || config.addressProblem !== '') {
    throw fail(503, 'Calling residents is not set up on this server.');
  }

  const params = readForm(e, MAX_FORM_BYTES);
  const signature = e.request.header.get('X-Twilio-Signature');
  // The URL is the one we gave the provider, not the one this request
  // arrived at: behind a proxy they differ, and the provider signed ours.
  const url = twilio.statusCallbackUrl(config);
  // Also with or without the default port, as Twilio's own validator.
  if (!lib('generated/twilio_signature').validTwilioSignatureForUrl(config.authToken, url, params, signature)) {
    throw fail(403, 'The request signature is missing or invalid.');
  }

  const sid = params.CallSid;
  const next = statuses.mapProviderStatus(params.CallStatus);
  if (typeof sid !== 'string' || sid === '') throw fail(400, 'CallSid is required.');
  if (next === '') throw fail(400, 'Unknown CallStatus.');

  const found = findCallBySid(e.app, sid);
  if (!found) throw fail(404, 'No call with this CallSid.');

  e.app.runInTransaction(function (tx) {
    // Read again inside the transaction: two callbacks may race.
    const call = tx.findRecordById('calls', found.id);
    if (!statuses.canMove(call.getString('status'), next)) return;
    call.set('status', next);
    if (next === 'failed' && typeof params.ErrorCode === 'string' && params.ErrorCode !== '') {
      call.set('error', ('Provider error ' + params.ErrorCode).slice(0, MAX_ERROR_LENGTH));
    }
    tx.save(call);
    if (statuses.isFinal(next)) clearPendingIfStill(tx, call.getString('house'), concernIdsOf(call));
  });

  e.response.header().set('Content-Type', 'text/xml; charset=utf-8');
  return e.string(200, '<Response/>');
}

module.exports = { callResident: callResident, callStatus: callStatus };
