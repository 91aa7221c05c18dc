// A local stand-in for an OpenAI-compatible chat-completions server, for tests.
//
//   const ai = await startOpenAIStandin({ apiKey: 'sk-test' });
//   // configure the app with baseUrl ai.url (".../v1"), key 'sk-test'
//   ...
//   expect(ai.requests[0]?.body).toMatchObject({ model: 'gpt-4o-mini' });
//   await ai.stop();
//
// Speaks the parts of the protocol the app uses: POST /v1/chat/completions
// (non-streaming) and GET /v1/models[/<id>], with OpenAI's error JSON shape
// ({ error: { message, type, param, code } }) for every failure.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string | Array<{ type: string; text?: string }> | null;
  name?: string;
}

export interface StandinRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** Parsed JSON body; the raw text when it was not JSON; null when empty. */
  body: unknown;
}

export interface OpenAIStandinOptions {
  /** Port to listen on (127.0.0.1); default 0 = any free port. */
  port?: number;
  /** When set, every request must send `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Reply text for a valid chat request. Default: "Rewritten: " + last user message. */
  reply?: (messages: ChatMessage[]) => string | Promise<string>;
  /** Answer chat requests with this HTTP status and an OpenAI error body (when not 200). */
  status?: number;
  /** Wait this long before answering any request. */
  delayMs?: number;
  /** Model ids listed by GET /v1/models. Default ['gpt-4o-mini']. */
  models?: string[];
}

export interface OpenAIStandin {
  /** Base URL, e.g. http://127.0.0.1:43125/v1 */
  url: string;
  /** Every request received, oldest first. */
  requests: StandinRequest[];
  stop(): Promise<void>;
}

interface OpenAIError {
  error: { message: string; type: string; param: string | null; code: string | null };
}

function errorBody(
  message: string,
  type: string,
  param: string | null = null,
  code: string | null = null,
): OpenAIError {
  return { error: { message, type, param, code } };
}

const ROLES: ReadonlySet<string> = new Set(['system', 'developer', 'user', 'assistant', 'tool']);

export function messageText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
  return '';
}

function defaultReply(messages: ChatMessage[]): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return 'Rewritten: ' + (lastUser ? messageText(lastUser.content) : '');
}

/** OpenAI shows a key as "sk-abc***********wxyz". */
function maskKey(key: string): string {
  if (key.length <= 8) return '*'.repeat(key.length);
  return key.slice(0, 3) + '*'.repeat(Math.min(key.length - 7, 20)) + key.slice(-4);
}

function estimateTokens(text: string): number {
  return text ? Math.max(1, Math.ceil(text.length / 4)) : 0;
}

function statusError(status: number): { type: string; code: string | null; message: string } {
  if (status === 401)
    return { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' };
  if (status === 403)
    return {
      type: 'invalid_request_error',
      code: 'unsupported_country_region_territory',
      message: 'Country, region, or territory not supported',
    };
  if (status === 404)
    return {
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: 'The model does not exist or you do not have access to it.',
    };
  if (status === 429)
    return {
      type: 'insufficient_quota',
      code: 'insufficient_quota',
      message: 'You exceeded your current quota, please check your plan and billing details.',
    };
  if (status === 503)
    return { type: 'server_error', code: null, message: 'The engine is currently overloaded, please try again later' };
  if (status >= 500)
    return {
      type: 'server_error',
      code: null,
      message: 'The server had an error while processing your request. Sorry about that!',
    };
  return { type: 'invalid_request_error', code: null, message: `Request failed with status ${status}.` };
}

/** Validate a chat-completions body; returns an error (status 400) or the request. */
function validateChat(body: unknown): { error: OpenAIError } | { model: string; messages: ChatMessage[] } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return {
      error: errorBody(
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
        'invalid_request_error',
      ),
    };
  }
  const b = body as Record<string, unknown>;
  if (b['model'] === undefined || b['model'] === null || b['model'] === '') {
    return { error: errorBody('you must provide a model parameter', 'invalid_request_error') };
  }
  if (typeof b['model'] !== 'string') {
    return {
      error: errorBody(
        `Invalid type for 'model': expected a string, but got ${typeName(b['model'])} instead.`,
        'invalid_request_error',
        'model',
        'invalid_type',
      ),
    };
  }
  const messages = b['messages'];
  if (messages === undefined) {
    return {
      error: errorBody(
        "Missing required parameter: 'messages'.",
        'invalid_request_error',
        'messages',
        'missing_required_parameter',
      ),
    };
  }
  if (!Array.isArray(messages)) {
    return {
      error: errorBody(
        `Invalid type for 'messages': expected an array of objects, but got ${typeName(messages)} instead.`,
        'invalid_request_error',
        'messages',
        'invalid_type',
      ),
    };
  }
  if (messages.length === 0) {
    return {
      error: errorBody(
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        'invalid_request_error',
        'messages',
        'empty_array',
      ),
    };
  }
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i];
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      return {
        error: errorBody(
          `Invalid type for 'messages[${i}]': expected an object, but got ${typeName(m)} instead.`,
          'invalid_request_error',
          `messages[${i}]`,
          'invalid_type',
        ),
      };
    }
    const msg = m as Record<string, unknown>;
    if (typeof msg['role'] !== 'string' || !ROLES.has(msg['role'])) {
      return {
        error: errorBody(
          `Invalid value: '${String(msg['role'])}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`,
          'invalid_request_error',
          `messages[${i}].role`,
          'invalid_value',
        ),
      };
    }
    const content = msg['content'];
    if (typeof content !== 'string' && !Array.isArray(content) && !(content === null && msg['role'] === 'assistant')) {
      return {
        error: errorBody(
          `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${typeName(content)} instead.`,
          'invalid_request_error',
          `messages[${i}].content`,
          'invalid_type',
        ),
      };
    }
  }
  if (b['stream'] === true) {
    return {
      error: errorBody(
        'stream: true is not supported by the test stand-in.',
        'invalid_request_error',
        'stream',
        'unsupported_value',
      ),
    };
  }
  return { model: b['model'], messages: messages as ChatMessage[] };
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return 'a string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a decimal';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    'openai-processing-ms': '1',
    'x-request-id': 'req_' + randomBytes(16).toString('hex'),
  });
  res.end(text);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export async function startOpenAIStandin(options: OpenAIStandinOptions = {}): Promise<OpenAIStandin> {
  const requests: StandinRequest[] = [];
  const models = options.models ?? ['gpt-4o-mini'];
  const created = Math.floor(Date.now() / 1000);

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://standin').pathname.replace(/\/+$/, '') || '/';
    const raw = await readBody(req);
    let body: unknown = null;
    if (raw !== '') {
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        body = raw;
      }
    }
    requests.push({ method, path, headers: req.headers, body });

    if (options.delayMs) await sleep(options.delayMs);

    if (options.apiKey !== undefined) {
      const auth = req.headers.authorization;
      const m = auth ? /^Bearer\s+(.+)$/i.exec(auth) : null;
      const given = m?.[1]?.trim() ?? '';
      if (!auth || (given === '' && /^Bearer\s*$/i.test(auth))) {
        sendJson(
          res,
          401,
          errorBody(
            "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
            'invalid_request_error',
          ),
        );
        return;
      }
      if (given !== options.apiKey) {
        sendJson(
          res,
          401,
          errorBody(
            `Incorrect API key provided: ${maskKey(given || auth)}.`,
            'invalid_request_error',
            null,
            'invalid_api_key',
          ),
        );
        return;
      }
    }

    if (path === '/v1/models' && method === 'GET') {
      sendJson(res, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created, owned_by: 'scms-standin' })),
      });
      return;
    }
    const modelPath = /^\/v1\/models\/(.+)$/.exec(path);
    if (modelPath && method === 'GET') {
      const id = decodeURIComponent(modelPath[1] ?? '');
      if (models.includes(id)) sendJson(res, 200, { id, object: 'model', created, owned_by: 'scms-standin' });
      else
        sendJson(
          res,
          404,
          errorBody(`The model '${id}' does not exist`, 'invalid_request_error', 'model', 'model_not_found'),
        );
      return;
    }
    if (path !== '/v1/chat/completions' || method !== 'POST') {
      sendJson(res, 404, errorBody(`Invalid URL (${method} ${path})`, 'invalid_request_error'));
      return;
    }

    const checked = validateChat(body);
    if ('error' in checked) {
      sendJson(res, 400, checked.error);
      return;
    }
    if (options.status !== undefined && options.status !== 200) {
      const e = statusError(options.status);
      sendJson(res, options.status, errorBody(e.message, e.type, null, e.code));
      return;
    }

    const content = await (options.reply ?? defaultReply)(checked.messages);
    const promptTokens = checked.messages.reduce((n, m) => n + estimateTokens(messageText(m.content)) + 4, 3);
    const completionTokens = estimateTokens(content);
    sendJson(res, 200, {
      id: 'chatcmpl-' + randomBytes(15).toString('base64url').slice(0, 20),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: checked.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null, annotations: [] },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
      service_tier: 'default',
      system_fingerprint: 'fp_standin',
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        sendJson(
          res,
          500,
          errorBody(`Stand-in failure: ${err instanceof Error ? err.message : String(err)}`, 'server_error'),
        );
      } else {
        res.destroy();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    stop() {
      stopped ??= new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
      return stopped;
    },
  };
}
