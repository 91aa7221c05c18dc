// @vitest-environment jsdom
/**
 * Ai Assist refused because its rewrite would not fit a narrative
 * (docs/product.md#ai-assist): the Create report form shows the server's words in its 'Fail'
 * toast, shows no Ai Generated tab, and keeps the officer's original text.
 * The refusal is the SDK's own error for the server's 422 answer
 * (tests/integration/ai-assist-length.test.ts checks the server side).
 */
import '../support/browser-globals.ts';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ClientResponseError } from 'pocketbase';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { pb } from '../../src/api/client.ts';
import { userDatabase, type ScmsDatabase } from '../../src/data/mirror/db.ts';
import type { EngineStatus } from '../../src/data/sync/engine.ts';
import { CreateReportPage } from '../../src/features/reports/CreateReportPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;

const fake = vi.hoisted(() => ({
  db: null as unknown as ScmsDatabase,
  status: { online: true, syncing: false, authRequired: false, lastError: null } as EngineStatus,
}));
vi.mock('../../src/data/DataProvider.tsx', () => ({
  useSyncEngine: () => ({
    db: fake.db,
    subscribe: () => () => undefined,
    getStatus: () => fake.status,
    loadHistoryRange: async () => undefined,
  }),
}));

const USER = 'officer00000002';
const MESSAGE =
  'The rewritten narrative has 10,125 characters, more than the 4,500 a narrative may hold. Shorten the original narrative and try Ai Assist again.';
let run = 0;

beforeEach(() => {
  fake.db = userDatabase(`aitoolong${String(++run).padStart(6, '0')}`);
  pb.authStore.save('test-token', {
    id: USER,
    collectionId: '_pb_users_auth_',
    collectionName: 'users',
    type: 'regular',
    community: 'community000001',
    first_name: 'Sam',
    last_name: 'Lee',
  });
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  pb.authStore.clear();
});

it("a rewrite too long for a narrative: 'Fail' with the server's words, no Ai Generated tab, the original kept", async () => {
  const send = vi.spyOn(pb, 'send').mockRejectedValue(
    new ClientResponseError({
      url: 'http://127.0.0.1/api/scms/ai-assist',
      status: 422,
      response: { error: true, code: 422, message: MESSAGE },
    }),
  );
  render(
    <ToastProvider>
      <MemoryRouter initialEntries={['/reports/create']}>
        <Routes>
          <Route path="/reports/create" element={<CreateReportPage />} />
        </Routes>
      </MemoryRouter>
    </ToastProvider>,
  );
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Original narrative'), 'veh veh veh');
  await user.click(screen.getByRole('button', { name: 'Ai Assist' }));
  const toast = (await screen.findByText('Fail')).closest<HTMLElement>('[role=alert]')!;
  expect(within(toast).getByText(MESSAGE)).toBeTruthy();
  expect(send).toHaveBeenCalledTimes(1);
  expect(screen.queryByRole('tab', { name: 'Ai Generated' })).toBeNull();
  expect((screen.getByLabelText('Original narrative') as HTMLTextAreaElement).value).toBe('veh veh veh');
  // Ai Assist can be asked again (after shortening): the button is not stuck busy.
  expect(screen.getByRole('button', { name: 'Ai Assist' }).hasAttribute('disabled')).toBe(false);
});
