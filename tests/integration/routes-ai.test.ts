/**
 * POST /api/scms/ai-assist against a real PocketBase: the offline editor when
 * no model is configured, and an OpenAI-compatible model (the local
 * stand-in) when AI_BASE_URL and AI_MODEL are set.
 */
import { loadHookLib } from '../support/hook-lib.ts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort } from '../../scripts/pocketbase/server.ts';
import { startOpenAIStandin, type OpenAIStandin } from '../support/openai-standin.ts';
import { createCommunity, startTestServer } from '../support/pocketbase.ts';

const API_KEY = 'sk-routes-ai-test-key';
const MODEL = 'gpt-4o-mini';
const NARRATIVE = '  at approx 2200 hrs ofc observed veh parked on lawn at 12 palm ct , res was notified  ';

const { editNarrative } = loadHookLib<{ editNarrative: (text: string) => string }>('offline_editor.js');

interface Reply {
  status: number;
  json: Record<string, unknown>;
}

/** A server with the given AI settings and a signed-in officer's token. */
async function startWith(env: Record<string, string>) {
  const t = await startTestServer({ AI_BASE_URL: '', AI_API_KEY: '', AI_MODEL: '', ...env });
  const fixture = await createCommunity(t.admin, 'ai');
  const officer = await t.signIn(fixture.regular.email);
  const assist = async (body: unknown, token: string | null = officer.authStore.token): Promise<Reply> => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = token;
    const res = await fetch(`${t.url}/api/scms/ai-assist`, {
      method: 'POST',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  return { t, assist };
}

describe('without a model: the offline editor', () => {
  let s: Awaited<ReturnType<typeof startWith>>;
  beforeAll(async () => {
    s = await startWith({});
  });
  afterAll(async () => {
    await s?.t.stop();
  });

  test('rewrites the trimmed narrative and says the offline editor did it', async () => {
    const reply = await s.assist({ user_input: NARRATIVE });
    expect(reply.status).toBe(200);
    const expected = editNarrative(NARRATIVE.trim());
    expect(expected).not.toBe(NARRATIVE.trim()); // the editor really changed something
    expect(reply.json).toEqual({ data: expected, source: 'offline-editor' });
  });

  test('input of 4500 characters is accepted, empty and 4501 are refused', async () => {
    // Ending with its dot, so the editor's rewrite stays at 4500 (a longer one is refused: ai-assist-length.test.ts).
    expect((await s.assist({ user_input: 'a'.repeat(4499) + '.' })).status).toBe(200);
    for (const input of ['', '   \n  ', 'a'.repeat(4501)]) {
      const reply = await s.assist({ user_input: input });
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({
        error: true,
        code: 400,
        data: { user_input: { message: expect.any(String) } },
      });
    }
  });

  test('bodies that are not {user_input: string} are refused', async () => {
    for (const body of ['{"user_input": "x"', '"text"', { user_input: 42 }, { text: 'x' }, { user_input: ['x'] }]) {
      const reply = await s.assist(body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.json).toMatchObject({ error: true, code: 400 });
    }
  });

  test('anonymous callers are refused', async () => {
    const reply = await s.assist({ user_input: NARRATIVE }, null);
    expect(reply).toEqual({ status: 401, json: { error: true, code: 401, message: expect.any(String) } });
  });
});

describe('with an OpenAI-compatible model', () => {
  let ai: OpenAIStandin;
  beforeAll(async () => {
    ai = await startOpenAIStandin({
      apiKey: API_KEY,
      reply: () => 'At approximately 22:00, the officer observed a vehicle.',
    });
  });
  afterAll(async () => {
    await ai?.stop();
  });

  test("returns the model's rewrite and names the model", async () => {
    const s = await startWith({ AI_BASE_URL: ai.url, AI_API_KEY: API_KEY, AI_MODEL: MODEL });
    try {
      const reply = await s.assist({ user_input: NARRATIVE });
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({
        data: 'At approximately 22:00, the officer observed a vehicle.',
        source: 'model',
        model: MODEL,
      });
      const sent = ai.requests.at(-1);
      expect(sent?.path).toBe('/v1/chat/completions');
      expect(sent?.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(sent?.body).toMatchObject({
        model: MODEL,
        messages: expect.arrayContaining([{ role: 'user', content: NARRATIVE.trim() }]),
      });
    } finally {
      await s.t.stop();
    }
  });

  test("a provider refusal (wrong key) is a 502 with the provider's message", async () => {
    const s = await startWith({ AI_BASE_URL: ai.url, AI_API_KEY: 'sk-not-the-right-key', AI_MODEL: MODEL });
    try {
      const reply = await s.assist({ user_input: NARRATIVE });
      expect(reply.status).toBe(502);
      expect(reply.json).toMatchObject({ error: true, code: 502 });
      expect(reply.json.message).toMatch(/^AI provider error \(401\): Incorrect API key provided/);
    } finally {
      await s.t.stop();
    }
  });

  test('an unreachable provider is a 502', async () => {
    const s = await startWith({ AI_BASE_URL: `http://127.0.0.1:${await freePort()}/v1`, AI_MODEL: MODEL });
    try {
      const reply = await s.assist({ user_input: NARRATIVE });
      expect(reply.status).toBe(502);
      expect(reply.json).toMatchObject({
        error: true,
        code: 502,
        message: expect.stringContaining('could not be reached'),
      });
    } finally {
      await s.t.stop();
    }
  });
});
