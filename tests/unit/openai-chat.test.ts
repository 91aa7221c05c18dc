import { loadHookLib } from '../support/hook-lib.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { startOpenAIStandin, type ChatMessage, type OpenAIStandin } from '../support/openai-standin.ts';

interface ChatRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}
type ChatResult = { ok: true; text: string } | { ok: false; message: string };

const { SYSTEM_PROMPT, buildChatRequest, readChatResponse } = loadHookLib<{
  SYSTEM_PROMPT: string;
  buildChatRequest: (options: { baseUrl: string; apiKey?: string; model: string; userInput: string }) => ChatRequest;
  readChatResponse: (statusCode: number, json: unknown) => ChatResult;
}>('openai_chat.js');

/** JSON round trip: objects made in the vm context get this realm's prototypes. */
const plain = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('SYSTEM_PROMPT', () => {
  it.each([
    ['security patrol', /security patrol/i],
    ['incident narrative', /incident narrative/i],
    ['professional past tense', /professional, past-tense English/i],
    ['grammar and spelling', /grammar, spelling/i],
    ['abbreviations', /expand abbreviations/i],
    ['facts unchanged', /keep every fact exactly as written/i],
    ['times, names, addresses, plates, numbers', /times.*names.*addresses.*plates.*numbers/is],
    ['adds nothing', /add nothing/i],
    ['narrative only', /answer with the rewritten narrative only/i],
  ])('mentions %s', (_what, pattern) => {
    expect(SYSTEM_PROMPT).toMatch(pattern);
  });
});

describe('buildChatRequest', () => {
  it('builds an OpenAI chat-completions request', () => {
    const req = plain(
      buildChatRequest({
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-test',
        model: 'gpt-4o-mini',
        userInput: 'veh parked',
      }),
    );
    expect(req).toEqual({
      url: 'https://api.openai.com/v1/chat/completions',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: 'Bearer sk-test' },
      body: expect.any(String) as string,
    });
    expect(JSON.parse(req.body)).toEqual({
      model: 'gpt-4o-mini',
      temperature: 0.2,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: 'veh parked' },
      ],
    });
  });

  it.each([
    ['http://127.0.0.1:11434/v1', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://127.0.0.1:11434/v1/', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['http://127.0.0.1:11434/v1///', 'http://127.0.0.1:11434/v1/chat/completions'],
    ['  https://api.openai.com/v1  ', 'https://api.openai.com/v1/chat/completions'],
    ['https://llm.example.test/openai/v1/chat/completions', 'https://llm.example.test/openai/v1/chat/completions'],
  ])('url for base %j is %j', (baseUrl, url) => {
    expect(buildChatRequest({ baseUrl, model: 'm', userInput: 'x' }).url).toBe(url);
  });

  it.each([
    ['no key', undefined],
    ['empty key', ''],
    ['blank key', '   '],
  ])('sends no Authorization header with %s (e.g. Ollama)', (_what, apiKey) => {
    const req = buildChatRequest({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey, model: 'llama3.2', userInput: 'x' });
    expect(plain(req.headers)).toEqual({ 'Content-Type': 'application/json', Accept: 'application/json' });
    expect(Object.keys(req.headers)).not.toContain('Authorization');
  });

  it('trims the key and sends the user input unchanged', () => {
    const input = '  at 14:30 res in apt 4B said "hi"\n\nveh ABC-123  ';
    const req = buildChatRequest({ baseUrl: 'http://x/v1', apiKey: ' sk-1 ', model: ' m ', userInput: input });
    expect(req.headers['Authorization']).toBe('Bearer sk-1');
    const body = JSON.parse(req.body) as { model: string; messages: Array<{ role: string; content: string }> };
    expect(body.model).toBe('m');
    expect(body.messages[1]).toEqual({ role: 'user', content: input });
  });

  it.each([
    ['baseUrl', { baseUrl: '', model: 'm', userInput: 'x' }, /baseUrl is required/],
    ['model', { baseUrl: 'http://x/v1', model: ' ', userInput: 'x' }, /model is required/],
    [
      'userInput',
      { baseUrl: 'http://x/v1', model: 'm', userInput: 42 as unknown as string },
      /userInput must be a string/,
    ],
  ])('rejects a missing %s', (_what, options, message) => {
    expect(() => buildChatRequest(options)).toThrow(message);
  });
});

describe('readChatResponse', () => {
  const completion = (content: unknown) => ({
    id: 'chatcmpl-abc',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
  });

  it.each([
    ['plain text', 'The vehicle was parked.', 'The vehicle was parked.'],
    ['surrounding whitespace', '\n  The vehicle was parked.  \n', 'The vehicle was parked.'],
    ['wrapping double quotes', '"The vehicle was parked."', 'The vehicle was parked.'],
    ['wrapping curly quotes', '\u201CThe vehicle was parked.\u201D', 'The vehicle was parked.'],
    ['a ``` fence', '```\nThe vehicle was parked.\n```', 'The vehicle was parked.'],
    ['a ```text fence', '```text\nLine one.\n\nLine two.\n```', 'Line one.\n\nLine two.'],
    ['a fence around quotes', '```\n"The vehicle was parked."\n```', 'The vehicle was parked.'],
    ['inner quotes (kept)', '"Stop," he said. "Now."', '"Stop," he said. "Now."'],
    ['a quote at the end only (kept)', 'He said "stop"', 'He said "stop"'],
    [
      'content parts',
      [
        { type: 'text', text: 'Part one. ' },
        { type: 'text', text: 'Part two.' },
      ],
      'Part one. Part two.',
    ],
  ])('ok with %s', (_what, content, text) => {
    expect(plain(readChatResponse(200, completion(content)))).toEqual({ ok: true, text });
  });

  it('parses a raw JSON string body', () => {
    expect(plain(readChatResponse(200, JSON.stringify(completion('Done.'))))).toEqual({ ok: true, text: 'Done.' });
  });

  it.each([
    [
      'OpenAI 401',
      401,
      {
        error: {
          message: 'Incorrect API key provided: sk-ab***cd.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
      'AI provider error (401): Incorrect API key provided: sk-ab***cd.',
    ],
    [
      'OpenAI 429',
      429,
      { error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } },
      'AI provider error (429): Rate limit reached',
    ],
    [
      'Ollama error string',
      404,
      { error: "model 'llama9' not found" },
      "AI provider error (404): model 'llama9' not found",
    ],
    ['a message field', 400, { message: 'Bad model' }, 'AI provider error (400): Bad model'],
    ['a detail field', 422, { detail: 'Unprocessable' }, 'AI provider error (422): Unprocessable'],
    ['no body', 502, null, 'AI provider error (502)'],
    [
      'an HTML body',
      503,
      '<html>Service Unavailable</html>',
      'AI provider error (503): <html>Service Unavailable</html>',
    ],
    ['a 200 with an error', 200, { error: { message: 'Model overloaded' } }, 'AI provider error: Model overloaded'],
    [
      'a 200 without choices',
      200,
      { id: 'x', choices: [] },
      'AI provider returned no message (choices[0].message is missing)',
    ],
    [
      'a 200 without message',
      200,
      { choices: [{ index: 0 }] },
      'AI provider returned no message (choices[0].message is missing)',
    ],
    ['a 200 with null content', 200, completion(null), 'AI provider returned an empty reply'],
    ['a 200 with blank content', 200, completion('   \n'), 'AI provider returned an empty reply'],
    ['a 200 with an empty fence', 200, completion('```\n```'), 'AI provider returned an empty reply'],
    ['a 200 with a number as content', 200, completion(42), 'AI provider returned an empty reply'],
    [
      'a refusal',
      200,
      { choices: [{ message: { role: 'assistant', content: null, refusal: 'I cannot help with that.' } }] },
      'AI provider returned an empty reply: I cannot help with that.',
    ],
    ['a 200 with a non-JSON body', 200, 'not json', 'AI provider returned an invalid response (not JSON)'],
    ['a 201', 201, completion('Text'), 'AI provider error (201)'],
    ['no status', 0, null, 'AI provider error (no status)'],
  ])('error with %s', (_what, status, json, message) => {
    expect(plain(readChatResponse(status, json))).toEqual({ ok: false, message });
  });
});

describe('round trip against the OpenAI stand-in', () => {
  let ai: OpenAIStandin | undefined;
  afterEach(async () => {
    await ai?.stop();
    ai = undefined;
  });

  async function send(req: ChatRequest): Promise<{ status: number; json: unknown }> {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
    return { status: res.status, json: (await res.json()) as unknown };
  }

  it('sends the built request and reads the default reply', async () => {
    ai = await startOpenAIStandin({ apiKey: 'sk-standin-123456' });
    expect(ai.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);

    const req = buildChatRequest({
      baseUrl: ai.url,
      apiKey: 'sk-standin-123456',
      model: 'gpt-4o-mini',
      userInput: 'veh parked at 14:30',
    });
    const { status, json } = await send(req);

    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/) as string,
      object: 'chat.completion',
      created: expect.any(Number) as number,
      model: 'gpt-4o-mini',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Rewritten: veh parked at 14:30' }, finish_reason: 'stop' },
      ],
      usage: {
        prompt_tokens: expect.any(Number) as number,
        completion_tokens: expect.any(Number) as number,
        total_tokens: expect.any(Number) as number,
      },
    });
    expect(plain(readChatResponse(status, json))).toEqual({ ok: true, text: 'Rewritten: veh parked at 14:30' });

    expect(ai.requests).toHaveLength(1);
    const seen = ai.requests[0];
    expect(seen?.method).toBe('POST');
    expect(seen?.path).toBe('/v1/chat/completions');
    expect(seen?.headers['authorization']).toBe('Bearer sk-standin-123456');
    expect(seen?.headers['content-type']).toBe('application/json');
    expect(seen?.body).toEqual(JSON.parse(req.body));
  });

  it('uses a custom reply and works without a key (Ollama style)', async () => {
    let received: ChatMessage[] = [];
    ai = await startOpenAIStandin({
      reply: (messages) => {
        received = messages;
        return '```\n"The vehicle was parked at 14:30."\n```';
      },
    });
    const req = buildChatRequest({ baseUrl: `${ai.url}/`, model: 'llama3.2', userInput: 'veh parked at 14:30' });
    expect(req.headers['Authorization']).toBeUndefined();
    const { status, json } = await send(req);
    expect(plain(readChatResponse(status, json))).toEqual({ ok: true, text: 'The vehicle was parked at 14:30.' });
    expect(received.map((m) => m.role)).toEqual(['system', 'user']);
    expect(received[0]?.content).toBe(SYSTEM_PROMPT);
    expect(ai.requests[0]?.headers['authorization']).toBeUndefined();
  });

  it('reports a wrong API key with the provider message', async () => {
    ai = await startOpenAIStandin({ apiKey: 'sk-right-key-0000' });
    const { status, json } = await send(
      buildChatRequest({ baseUrl: ai.url, apiKey: 'sk-wrong-key-9999', model: 'gpt-4o-mini', userInput: 'x' }),
    );
    expect(status).toBe(401);
    expect(json).toEqual({
      error: {
        message: expect.stringMatching(/^Incorrect API key provided: sk-\**9999\.$/) as string,
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    });
    const result = plain(readChatResponse(status, json));
    expect(result.ok).toBe(false);
    expect(result).toMatchObject({
      message: expect.stringMatching(/^AI provider error \(401\): Incorrect API key provided: /) as string,
    });
  });

  it('reports a missing API key', async () => {
    ai = await startOpenAIStandin({ apiKey: 'sk-right-key-0000' });
    const { status, json } = await send(buildChatRequest({ baseUrl: ai.url, model: 'gpt-4o-mini', userInput: 'x' }));
    expect(status).toBe(401);
    expect(plain(readChatResponse(status, json))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^AI provider error \(401\): You didn't provide an API key/) as string,
    });
  });

  it('rejects requests without model or messages with 400 in OpenAI shape', async () => {
    ai = await startOpenAIStandin();
    const post = async (body: unknown) => {
      const res = await fetch(`${ai?.url}/chat/completions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      return {
        status: res.status,
        json: (await res.json()) as {
          error: { message: string; type: string; param: string | null; code: string | null };
        },
      };
    };
    const noModel = await post({ messages: [{ role: 'user', content: 'x' }] });
    expect(noModel).toEqual({
      status: 400,
      json: {
        error: {
          message: 'you must provide a model parameter',
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });

    const noMessages = await post({ model: 'm' });
    expect(noMessages.status).toBe(400);
    expect(noMessages.json.error).toEqual({
      message: "Missing required parameter: 'messages'.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'missing_required_parameter',
    });

    expect((await post({ model: 'm', messages: 'hi' })).json.error.code).toBe('invalid_type');
    expect((await post({ model: 'm', messages: [] })).json.error.code).toBe('empty_array');
    expect((await post({ model: 'm', messages: [{ role: 'boss', content: 'x' }] })).json.error.param).toBe(
      'messages[0].role',
    );
    expect((await post({ model: 'm', messages: [{ role: 'user', content: 5 }] })).json.error.param).toBe(
      'messages[0].content',
    );
    const notJson = await post('{nope');
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.message).toMatch(/could not parse the JSON body/);

    expect(plain(readChatResponse(noModel.status, noModel.json))).toEqual({
      ok: false,
      message: 'AI provider error (400): you must provide a model parameter',
    });
  });

  it('answers with a configured error status', async () => {
    ai = await startOpenAIStandin({ status: 500 });
    const { status, json } = await send(buildChatRequest({ baseUrl: ai.url, model: 'm', userInput: 'x' }));
    expect(status).toBe(500);
    expect(json).toMatchObject({ error: { type: 'server_error' } });
    expect(plain(readChatResponse(status, json))).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^AI provider error \(500\): The server had an error/) as string,
    });
  });

  it('waits delayMs before answering', async () => {
    ai = await startOpenAIStandin({ delayMs: 150 });
    const started = Date.now();
    const { status } = await send(buildChatRequest({ baseUrl: ai.url, model: 'm', userInput: 'x' }));
    expect(status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('lists models and 404s unknown routes', async () => {
    ai = await startOpenAIStandin({ models: ['gpt-4o-mini', 'llama3.2'] });
    const models = await fetch(`${ai.url}/models`);
    expect(models.status).toBe(200);
    expect(await models.json()).toMatchObject({
      object: 'list',
      data: [
        { id: 'gpt-4o-mini', object: 'model' },
        { id: 'llama3.2', object: 'model' },
      ],
    });
    const one = await fetch(`${ai.url}/models/llama3.2`);
    expect(await one.json()).toMatchObject({ id: 'llama3.2', object: 'model' });
    const missing = await fetch(`${ai.url}/models/nope`);
    expect(missing.status).toBe(404);
    const wrong = await fetch(`${ai.url}/completions`, { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/completions)', type: 'invalid_request_error', param: null, code: null },
    });
  });

  it('stops listening on stop()', async () => {
    ai = await startOpenAIStandin();
    const url = ai.url;
    await ai.stop();
    await ai.stop(); // twice is fine
    ai = undefined;
    await expect(fetch(`${url}/models`)).rejects.toThrow();
  });
});
