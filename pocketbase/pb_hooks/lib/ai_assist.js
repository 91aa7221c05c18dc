/// POST /api/scms/ai-assist: rewrites an incident narrative (spec §7). With
/// AI_BASE_URL and AI_MODEL set it asks that OpenAI-compatible model; without
/// them the built-in offline editor does a deterministic clean-up, and the
/// answer says which one wrote the text.

const MAX_JSON_BYTES = 64 * 1024;
const MAX_INPUT_LENGTH = 4500; // the narrative's limit (spec §5)
const MODEL_TIMEOUT_SECONDS = 60;

function aiAssist(e) {
  const { fail, requireStaff, readJsonObject } = require(`${__hooks}/lib/respond.js`);
  requireStaff(e);
  const body = readJsonObject(e, MAX_JSON_BYTES);

  const input = typeof body.user_input === 'string' ? body.user_input.trim() : null;
  // Characters as PocketBase counts them (code points): an emoji is one.
  const length = input === null ? 0 : input.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
  if (length < 1 || length > MAX_INPUT_LENGTH) {
    const message = 'user_input must be between 1 and ' + MAX_INPUT_LENGTH + ' characters.';
    throw fail(400, message, { user_input: { code: 'validation_length_out_of_range', message: message } });
  }

  const baseUrl = String($os.getenv('AI_BASE_URL') || '').trim();
  const model = String($os.getenv('AI_MODEL') || '').trim();
  if (baseUrl === '' || model === '') {
    const { editNarrative } = require(`${__hooks}/lib/offline_editor.js`);
    return e.json(200, { data: editNarrative(input), source: 'offline-editor' });
  }

  const chat = require(`${__hooks}/lib/openai_chat.js`);
  const request = chat.buildChatRequest({
    baseUrl: baseUrl,
    apiKey: String($os.getenv('AI_API_KEY') || ''),
    model: model,
    userInput: input,
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
  return e.json(200, { data: answer.text, source: 'model', model: model });
}

module.exports = { aiAssist: aiAssist };
