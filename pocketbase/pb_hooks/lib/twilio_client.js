/// The slice of Twilio's Programmable Voice REST API the app uses: create an
/// outbound call that says a script and reports its progress to our
/// status-callback route. Talks to Twilio itself in production and to the
/// local stand-in (scripts/standins/telephony.ts) in development and tests.

const STATUS_PATH = '/api/scms/call-status';
// Under the status path so the provider's rate limit (1200 a minute) covers them.
const AMD_PATH = '/api/scms/call-status/amd';
const GATHER_PATH = '/api/scms/call-status/gather';
// Twilio refuses inline TwiML longer than this (error 32018).
const MAX_INLINE_TWIML_CHARS = 4000;
// Reported in this order; Twilio wants one StatusCallbackEvent parameter per
// event (as its libraries send them): a single space-separated value is
// refused (21626) or read as "completed" only.
const STATUS_EVENTS = ['initiated', 'ringing', 'answered', 'completed'];

/** Reads the telephony settings from the environment. `missing` lists the
 *  unset variables; with any missing no call can be placed. */
function telephonyConfig() {
  const env = function (name) {
    return String($os.getenv(name) || '').trim();
  };
  const config = {
    accountSid: env('TWILIO_ACCOUNT_SID'),
    authToken: env('TWILIO_AUTH_TOKEN'),
    fromNumber: env('TWILIO_FROM_NUMBER'),
    apiBase: (env('TWILIO_API_BASE') || 'https://api.twilio.com').replace(/\/+$/, ''),
    publicUrl: env('SCMS_PUBLIC_URL').replace(/\/+$/, ''),
  };
  const required = {
    TWILIO_ACCOUNT_SID: config.accountSid,
    TWILIO_AUTH_TOKEN: config.authToken,
    TWILIO_FROM_NUMBER: config.fromNumber,
    SCMS_PUBLIC_URL: config.publicUrl,
  };
  config.missing = Object.keys(required).filter(function (name) {
    return required[name] === '';
  });
  // With real Twilio, a public URL it cannot reach loses every callback.
  config.addressProblem =
    config.publicUrl === ''
      ? ''
      : require(`${__hooks}/lib/generated/telephony_address.js`).telephonyAddressProblem(
          config.apiBase,
          config.publicUrl,
        );
  return config;
}

/** The exact URL the provider posts status callbacks to, and so the URL its
 *  signatures are computed over. */
function statusCallbackUrl(config) {
  return config.publicUrl + STATUS_PATH;
}

/** The public URL of one of the provider's routes (STATUS, AMD, GATHER). */
function publicRouteUrl(config, which) {
  return config.publicUrl + { status: STATUS_PATH, amd: AMD_PATH, gather: GATHER_PATH }[which];
}

/** application/x-www-form-urlencoded from [name, value] pairs.
 *  encodeURIComponent leaves !'()* alone, which form decoders accept. */
function formEncode(pairs) {
  return pairs
    .map(function (pair) {
      return encodeURIComponent(pair[0]) + '=' + encodeURIComponent(pair[1]);
    })
    .join('&');
}

/** Basic credentials by hand: goja has no btoa or Buffer. */
function basicAuth(user, password) {
  const { utf8Bytes, base64 } = require(`${__hooks}/lib/generated/twilio_signature.js`);
  return 'Basic ' + base64(utf8Bytes(user + ':' + password));
}

/**
 * Asks the provider to call `to` and play `twiml`.
 * → {ok: true, sid} or {ok: false, message (for people), detail (for the
 *   call record)}.
 */
function placeCall(config, to, twiml) {
  const pairs = [
    ['To', to],
    ['From', config.fromNumber],
    ['Twiml', twiml],
    ['StatusCallback', statusCallbackUrl(config)],
    ['StatusCallbackMethod', 'POST'],
    // Answering-machine detection that waits for the end of the greeting, in
    // the background: a person hears the script at once; for a machine,
    // call-status/amd replaces the TwiML so the message plays after the beep.
    ['MachineDetection', 'DetectMessageEnd'],
    ['AsyncAmd', 'true'],
    ['AsyncAmdStatusCallback', publicRouteUrl(config, 'amd')],
    ['AsyncAmdStatusCallbackMethod', 'POST'],
  ];
  STATUS_EVENTS.forEach(function (event) {
    pairs.push(['StatusCallbackEvent', event]);
  });
  const result = post(config, '/Calls.json', pairs);
  return result.ok ? { ok: true, sid: result.sid } : result;
}

/**
 * Reads a call back from the provider (GET .../Calls/{sid}.json).
 * → {ok: true, status, answeredBy, duration} or {ok: false, detail}.
 */
function fetchCall(config, sid) {
  const url =
    config.apiBase +
    '/2010-04-01/Accounts/' +
    encodeURIComponent(config.accountSid) +
    '/Calls/' +
    encodeURIComponent(sid) +
    '.json';
  let res;
  try {
    res = $http.send({
      url: url,
      method: 'GET',
      headers: { Accept: 'application/json', Authorization: basicAuth(config.accountSid, config.authToken) },
      timeout: 20,
    });
  } catch (err) {
    return { ok: false, detail: 'Provider unreachable: ' + String(err) };
  }
  const json = res.json && typeof res.json === 'object' ? res.json : {};
  if (res.statusCode !== 200 || typeof json.status !== 'string')
    return { ok: false, detail: 'Provider answered HTTP ' + res.statusCode };
  return {
    ok: true,
    status: json.status,
    answeredBy: typeof json.answered_by === 'string' ? json.answered_by : '',
    duration: Number(json.duration) || 0,
  };
}

/** Replaces the TwiML of a live call (Twilio's "update a call"). */
function updateCall(config, sid, twiml) {
  return post(config, '/Calls/' + encodeURIComponent(sid) + '.json', [['Twiml', twiml]]);
}

/** Sends a text message (Twilio's Messages API). */
function sendText(config, to, body) {
  return post(config, '/Messages.json', [
    ['To', to],
    ['From', config.fromNumber],
    ['Body', body],
  ]);
}

/**
 * POSTs the form `pairs` to the account's `path`.
 * → {ok: true, sid} or {ok: false, message (for people), detail (for the record)}.
 */
function post(config, path, pairs) {
  const url = config.apiBase + '/2010-04-01/Accounts/' + encodeURIComponent(config.accountSid) + path;
  const body = formEncode(pairs);
  let res;
  try {
    res = $http.send({
      url: url,
      method: 'POST',
      body: body,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Accept: 'application/json',
        Authorization: basicAuth(config.accountSid, config.authToken),
      },
      timeout: 20,
    });
  } catch (err) {
    return {
      ok: false,
      message: 'The telephony provider could not be reached. Please try again later.',
      detail: 'Provider unreachable: ' + String(err),
    };
  }
  const json = res.json && typeof res.json === 'object' ? res.json : {};
  if ((res.statusCode === 201 || res.statusCode === 200) && typeof json.sid === 'string' && json.sid !== '') {
    return { ok: true, sid: json.sid };
  }
  // Twilio's errors are {code, message, more_info, status}.
  const providerMessage =
    typeof json.message === 'string' && json.message !== '' ? json.message : 'HTTP ' + res.statusCode;
  const detail = json.code
    ? 'Provider error ' + json.code + ': ' + providerMessage
    : 'Provider error: ' + providerMessage;
  return { ok: false, message: 'The call could not be placed: ' + providerMessage, detail: detail };
}

module.exports = {
  MAX_INLINE_TWIML_CHARS: MAX_INLINE_TWIML_CHARS,
  telephonyConfig: telephonyConfig,
  statusCallbackUrl: statusCallbackUrl,
  publicRouteUrl: publicRouteUrl,
  formEncode: formEncode,
  placeCall: placeCall,
  updateCall: updateCall,
  fetchCall: fetchCall,
  sendText: sendText,
};
