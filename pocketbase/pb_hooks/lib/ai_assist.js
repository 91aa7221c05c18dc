/// POST /api/scms/ai-assist: rewrites an incident narrative (docs/product.md#ai-assist). With
/// AI_BASE_URL and AI_MODEL set it asks that OpenAI-compatible model; without
/// them the built-in offline editor does a deterministic clean-up, and the
/// answer says which one wrote the text. The rewrite becomes the report's
/// ai_generated_narative, which holds what the narrative holds: a longer one
/// (expanded abbreviations, a chatty model) is refused with a message that
/// says so, never cut (a cut narrative loses facts at its end).

const MAX_JSON_BYTES = 64 * 1024;
const MAX_INPUT_LENGTH = 4500; // the narrative's limit (docs/product.md#validation-limits)
const MODEL_TIMEOUT_SECONDS = 60;

/**
 * Characters as PocketBase counts them (code points): an emoji is one. By
 * hand, as respond.js counts bytes: goja's regular expressions see code
 * points, so a class of surrogates never matched and an emoji counted two.
 */
function characterCount(text) {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The rewrite as the answer, or a 422 when it is longer than a narrative may be. */
function fitting(text) {
  const length = characterCount(text);
  if (length <= MAX_INPUT_LENGTH) return text;
  // goja's toLocaleString does not group digits.
  const grouped = (n) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  const { fail } = require(`${__hooks}/lib/respond.js`);
  throw fail(
    422,
    'The rewritten narrative has ' +
      grouped(length) +
      ' characters, more than the ' +
      grouped(MAX_INPUT_LENGTH) +
      ' a narrative may hold. Shorten the original narrative and try Ai Assist again.',
  );
}

function aiAssist(e) {
  const { fail, requireStaff, readJsonObject } = require(`${__hooks}/lib/respond.js`);
  requireStaff(e);
  const body = readJsonObject(e, MAX_JSON_BYTES);

  const input = typeof body.user_input === 'string' ? body.user_input.trim() : null;
  const length = input === null ? 0 : characterCount(input);
  if (length < 1 || length > MAX_INPUT_LENGTH) {
    const message = 'user_input must be between 1 and ' + MAX_INPUT_LENGTH + ' characters.';
    throw fail(400, message, { user_input: { code: 'validation_length_out_of_range', message: message } });
  }

  const baseUrl = String($os.getenv('AI_BASE_URL') || '').trim();
  const model = String($os.getenv('AI_MODEL') || '').trim();
  if (baseUrl === '' || model === '') {
    const { editNarrative } = require(`${__hooks}/lib/offline_editor.js`);
    return e.json(200, { data: fitting(editNarrative(input)), source: 'offline-editor' });
  }

  const chat = require(`${__hooks}/lib/openai_chat.js`);
  const request = chat.buildChatRequest({
    baseUrl: baseUrl,
    apiKey: String($os.getenv('AI_API_KEY') || ''),
    model: model,
    userInput: input,
    maxLength: MAX_INPUT_LENGTH,
  });
  let res;
  try {
    res = $http.send({
      url: request.url,
      method: request.method,
      headers: request.headers,
      body: request.body,
      timeout: MODEL_TIMEOUT_SECONDS,
    });
  } catch (err) {
    e.app.logger().warn('ai-assist: model unreachable', 'error', String(err));
    throw fail(502, 'The AI service could not be reached. Please try again later.');
  }
  const answer = chat.readChatResponse(res.statusCode, res.json);
  if (!answer.ok) throw fail(502, answer.message);
  return e.json(200, { data: fitting(answer.text), source: 'model', model: model });
}

module.exports = { aiAssist: aiAssist };
