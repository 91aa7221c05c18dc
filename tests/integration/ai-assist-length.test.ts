/**
 * Ai Assist's rewrite becomes the report's
 * ai_generated_narative, which holds at most 4,500 characters, like the
 * narrative. A rewrite that would not fit (the offline editor expands
 * abbreviations; a model may ramble) is refused with a message that says so,
 * never cut and never handed to the form to fail later. Real PocketBase; the
 * model is the local OpenAI stand-in speaking the real protocol.
 */
import type PocketBase from 'pocketbase';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { errorMessage } from '../../src/api/errorMessage.ts';
import { loadHookLib } from '../support/hook-lib.ts';
import { startOpenAIStandin, type ChatMessage, type OpenAIStandin } from '../support/openai-standin.ts';
import { createCommunity, startTestServer, type TestServer } from '../support/pocketbase.ts';

const LIMIT = 4500;
const API_KEY = 'sk-ai-length-test-key';
const MODEL = 'gpt-4o-mini';

const { editNarrative } = loadHookLib<{ editNarrative: (text: string) => string }>('offline_editor.js');
const { readChatResponse } = loadHookLib<{
  readChatResponse: (status: number, json: unknown) => { ok: true; text: string } | { ok: false; message: string };
}>('openai_chat.js');

/** 'veh ' 1,125 times: 4,500 characters that the offline editor expands to 'vehicle' each. */
const EXPANDING = 'veh '.repeat(LIMIT / 4).trim() + '.';

interface Reply {
  status: number;
  json: Record<string, unknown>;
}

async function startWith(
  env: Record<string, string>,
): Promise<{ t: TestServer; officer: PocketBase; assist: (userInput: string) => Promise<Reply> }> {
  const t = await startTestServer({ AI_BASE_URL: '', AI_API_KEY: '', AI_MODEL: '', ...env });
  const fixture = await createCommunity(t.admin, 'ailen');
  const officer = await t.signIn(fixture.regular.email);
  const assist = async (userInput: string): Promise<Reply> => {
    const res = await fetch(`${t.url}/api/scms/ai-assist`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: officer.authStore.token },
      body: JSON.stringify({ user_input: userInput }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return { t, officer, assist };
}

function expectTooLong(reply: Reply, length: number): void {
  expect(reply.status).toBe(422);
  expect(reply.json).toEqual({
    error: true,
    code: 422,
    message: `The rewritten narrative has ${length.toLocaleString('en-US')} characters, more than the 4,500 a narrative may hold. Shorten the original narrative and try Ai Assist again.`,
  });
  // No text to put in the form: nothing of the rewrite is handed out.
  expect(reply.json).not.toHaveProperty('data');
}

describe('the offline editor', () => {
  let s: Awaited<ReturnType<typeof startWith>>;
  beforeAll(async () => {
    s = await startWith({});
  });
  afterAll(async () => {
    await s?.t.stop();
  });

  test('a 4,500-character input whose rewrite grows past 4,500 is refused with the length in the message', async () => {
    expect(EXPANDING.length).toBeLessThanOrEqual(LIMIT);
    const rewrite = editNarrative(EXPANDING);
    expect(rewrite.length).toBeGreaterThan(LIMIT); // the editor really expands it
    expectTooLong(await s.assist(EXPANDING), rewrite.length);
  });

  test("the app's failure toast reads the refusal as the server wrote it", async () => {
    // As requestAiAssist (src/data/resources/reports.ts) sends it (the SDK), and as the form's 'Fail' toast builds its text.
    const refused = await s.officer
      .send('/api/scms/ai-assist', { method: 'POST', body: { user_input: EXPANDING } })
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(refused).not.toBeNull();
    expect(errorMessage(refused)).toMatch(
      /^The rewritten narrative has [\d,]+ characters, more than the 4,500 a narrative may hold\. Shorten the original narrative and try Ai Assist again\.$/,
    );
  });

  test('a rewrite of exactly 4,500 characters is answered whole', async () => {
    // Lowercase words the editor keeps as they are, capitalised and ended with a dot.
    const input = ('a'.repeat(9) + ' ').repeat(LIMIT / 10).trim() + '.';
    const rewrite = editNarrative(input);
    expect(rewrite.length).toBe(LIMIT);
    expect(await s.assist(input)).toEqual({ status: 200, json: { data: rewrite, source: 'offline-editor' } });
  });

  test('characters are counted as PocketBase counts them: an emoji is one', async () => {
    // 4,500 emoji are 9,000 UTF-16 units but 4,500 characters, as the narrative field counts.
    const input = '\u{1F697}'.repeat(LIMIT);
    const reply = await s.assist(input);
    expect(reply.status).toBe(200);
    expect(reply.json.data).toBe(editNarrative(input));
    const over = '\u{1F697}'.repeat(LIMIT + 1);
    expect((await s.assist(over)).status).toBe(400);
  });
});

describe('an OpenAI-compatible model', () => {
  let ai: OpenAIStandin;
  let s: Awaited<ReturnType<typeof startWith>>;
  /** What the stand-in model answers next. */
  let next = '';
  beforeAll(async () => {
    ai = await startOpenAIStandin({ apiKey: API_KEY, reply: (_messages: ChatMessage[]) => next });
    s = await startWith({ AI_BASE_URL: ai.url, AI_API_KEY: API_KEY, AI_MODEL: MODEL });
  });
  afterAll(async () => {
    await s?.t.stop();
    await ai?.stop();
  });

  test('is told the longest rewrite the narrative can hold', async () => {
    next = 'The officer observed a vehicle.';
    expect((await s.assist('ofc observed veh')).status).toBe(200);
    const body = ai.requests.at(-1)?.body as { messages: ChatMessage[] };
    const system = body.messages.find((m) => m.role === 'system');
    expect(system?.content).toMatch(/must not be longer than 4500 characters\.$/);
  });

  test('a 4,500-character input that the model makes 10,125 long is refused, not cut', async () => {
    next = 'The officer observed a vehicle. '.repeat(400).slice(0, 10_124) + '.';
    expectTooLong(await s.assist('x'.repeat(LIMIT)), 10_125);
  });

  test('one character over is refused; exactly 4,500 is answered whole', async () => {
    next = 'b'.repeat(LIMIT + 1);
    expectTooLong(await s.assist('short'), LIMIT + 1);
    next = 'b'.repeat(LIMIT);
    expect(await s.assist('short')).toEqual({ status: 200, json: { data: next, source: 'model', model: MODEL } });
  });
});

describe('a reply the model cut at its token limit', () => {
  test('is refused: its end (and the facts in it) is missing', () => {
    const cut = readChatResponse(200, {
      choices: [
        { index: 0, message: { role: 'assistant', content: 'At 22:00 the officer saw a' }, finish_reason: 'length' },
      ],
    });
    expect(cut).toEqual({ ok: false, message: 'AI provider stopped before the end of the rewrite (length limit)' });
    const whole = readChatResponse(200, {
      choices: [
        { index: 0, message: { role: 'assistant', content: 'At 22:00 the officer saw a car.' }, finish_reason: 'stop' },
      ],
    });
    expect(whole).toEqual({ ok: true, text: 'At 22:00 the officer saw a car.' });
  });
});
