/// OpenAI chat-completions request / response helpers for
/// `POST /api/scms/ai-assist`.
///
/// Pure functions, no I/O: the route hook sends the request with PocketBase's
/// `$http.send({ url, method, headers, body, timeout })` and passes
/// `(res.statusCode, res.json)` to readChatResponse. Works with any
/// OpenAI-compatible server (OpenAI, Ollama's /v1, LM Studio, vLLM, ...).
///
/// Loaded by PocketBase's goja VM with require(): plain ES2015, CommonJS, no
/// Node APIs.

'use strict';

const SYSTEM_PROMPT = [
  'You are an editor for the security patrol of a residential community.',
  'Rewrite the incident narrative written by a security officer in clear, professional, past-tense English.',
  'Correct grammar, spelling, punctuation and capitalisation, and expand abbreviations',
  '(for example "veh" to "vehicle", "res" to "resident", "approx" to "approximately").',
  'Keep every fact exactly as written: times, dates, names, addresses, unit and apartment numbers,',
  'license plates, vehicle descriptions, phone numbers and all other numbers must stay unchanged.',
  'Add nothing: no assumptions, opinions, conclusions, headings, greetings or notes, and leave no fact out.',
  'Answer with the rewritten narrative only.',
].join(' ');

const TEMPERATURE = 0.2;

function isNonEmptyString(v) {
  return typeof v === 'string' && v.trim() !== '';
}

/** The system prompt, with the longest rewrite the caller can keep when it has one. */
function systemPrompt(maxLength) {
  if (typeof maxLength !== 'number' || !(maxLength > 0)) return SYSTEM_PROMPT;
  return SYSTEM_PROMPT + ' The rewritten narrative must not be longer than ' + maxLength + ' characters.';
}

/**
 * Build the HTTP request for one chat completion.
 * @param {{ baseUrl: string, apiKey?: string, model: string, userInput: string, maxLength?: number }} options
 * @returns {{ url: string, method: 'POST', headers: Object<string, string>, body: string }}
 */
function buildChatRequest(options) {
  const o = options || {};
  if (!isNonEmptyString(o.baseUrl)) throw new Error('buildChatRequest: baseUrl is required');
  if (!isNonEmptyString(o.model)) throw new Error('buildChatRequest: model is required');
  if (typeof o.userInput !== 'string') throw new Error('buildChatRequest: userInput must be a string');

  let base = o.baseUrl.trim().replace(/\/+$/, '');
  // Tolerate a base URL that already names the endpoint.
  if (/\/chat\/completions$/.test(base)) base = base.slice(0, -'/chat/completions'.length);

  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (isNonEmptyString(o.apiKey)) headers.Authorization = 'Bearer ' + o.apiKey.trim();

  return {
    url: base + '/chat/completions',
    method: 'POST',
    headers,
    body: JSON.stringify({
      model: o.model.trim(),
      temperature: TEMPERATURE,
      messages: [
        { role: 'system', content: systemPrompt(o.maxLength) },
        { role: 'user', content: o.userInput },
      ],
    }),
  };
}

/** The provider's own error text, from the shapes OpenAI-compatible servers use. */
function providerMessage(json) {
  if (!json || typeof json !== 'object') return isNonEmptyString(json) ? String(json).trim() : '';
  const err = json.error;
  if (err && typeof err === 'object' && isNonEmptyString(err.message)) return err.message.trim();
  if (isNonEmptyString(err)) return err.trim(); // Ollama: {"error": "model 'x' not found"}
  if (isNonEmptyString(json.message)) return json.message.trim();
  if (isNonEmptyString(json.detail)) return json.detail.trim();
  return '';
}

/** Content as a string: plain, or joined text parts ([{type:'text', text}]). */
function contentText(content) {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'string' ? p : p && typeof p.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

const QUOTE_PAIRS = [
  ['"', '"'],
  ["'", "'"],
  ['\u201C', '\u201D'],
  ['\u2018', '\u2019'],
  ['`', '`'],
];

/** Strip one wrapping ``` fence and one wrapping pair of quotes, if present. */
function unwrap(text) {
  let t = text.trim();
  const fence = /^```[^\n`]*\n([\s\S]*?)\n?```$/.exec(t) || /^```([^`][\s\S]*?)```$/.exec(t);
  if (fence) t = fence[1].trim();
  for (let i = 0; i < QUOTE_PAIRS.length; i++) {
    const open = QUOTE_PAIRS[i][0];
    const close = QUOTE_PAIRS[i][1];
    if (t.length >= 2 && t.charAt(0) === open && t.charAt(t.length - 1) === close) {
      const inner = t.slice(1, -1);
      // Only a pair that wraps everything: '"Stop," he said. "Now."' stays.
      if (inner.indexOf(open) < 0 && inner.indexOf(close) < 0) t = inner.trim();
      break;
    }
  }
  return t;
}

/**
 * Read a chat-completions response.
 * @param {number} statusCode HTTP status
 * @param {*} json parsed body (a raw JSON string is parsed too)
 * @returns {{ ok: true, text: string } | { ok: false, message: string }}
 */
function readChatResponse(statusCode, json) {
  let body = json;
  if (typeof body === 'string') {
    try {
      body = JSON.parse(body);
    } catch {
      // not JSON: keep the text for the message (goja supports ES2019 catch)
    }
  }
  const detail = providerMessage(body);

  if (statusCode !== 200) {
    const code = typeof statusCode === 'number' && statusCode > 0 ? statusCode : 'no status';
    return { ok: false, message: 'AI provider error (' + code + ')' + (detail ? ': ' + detail : '') };
  }
  if (!body || typeof body !== 'object') {
    return { ok: false, message: 'AI provider returned an invalid response (not JSON)' };
  }
  if (body.error) {
    return { ok: false, message: 'AI provider error: ' + (detail || 'unknown error') };
  }
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const message = choice && typeof choice === 'object' ? choice.message : undefined;
  if (!message || typeof message !== 'object') {
    return { ok: false, message: 'AI provider returned no message (choices[0].message is missing)' };
  }
  // A reply cut at the model's token limit has lost the end of the narrative's facts.
  if (choice.finish_reason === 'length') {
    return { ok: false, message: 'AI provider stopped before the end of the rewrite (length limit)' };
  }
  const text = unwrap(contentText(message.content));
  if (!text) {
    const refusal = isNonEmptyString(message.refusal) ? ': ' + message.refusal.trim() : '';
    return { ok: false, message: 'AI provider returned an empty reply' + refusal };
  }
  return { ok: true, text };
}

module.exports = { SYSTEM_PROMPT, TEMPERATURE, buildChatRequest, readChatResponse };
