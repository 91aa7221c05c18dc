/** Ai Assist (spec §7): the server rewrites the original narrative. Online only. */
import { pb } from '../../api/client.ts';

export type AiSource = 'offline-editor' | 'model';

export const OFFLINE_AI_REASON = 'You are offline — Ai Assist needs a connection.';

export async function requestAiAssist(userInput: string): Promise<{ text: string; source: AiSource }> {
  const response = await pb.send<{ data?: unknown; source?: unknown }>('/api/scms/ai-assist', { method: 'POST', body: { user_input: userInput } });
  return {
    text: typeof response.data === 'string' ? response.data : '',
    // Without a configured model the server's built-in editor answers; the form says so.
    source: response.source === 'offline-editor' ? 'offline-editor' : 'model',
  };
}
