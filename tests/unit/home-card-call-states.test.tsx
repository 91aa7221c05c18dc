// @vitest-environment jsdom
/**
 * Where a home's calls stand on its card, one state at a time: 'Call in
 * progress...' while a call is placed or rings, 'Busy — next try 08:00'
 * while the job waits for its next attempt (with 'Cancel retries' for
 * directors and managers), 'Last call: …' once it is over. The rules
 * (cardCallState, nextTryWord, clockTime) and the Homes screen over a real
 * (fake-indexeddb) mirror.
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ClientResponseError, type RecordModel } from 'pocketbase';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { pb } from '../../src/api/client.ts';
import type { CallAttemptRecord, CallRecord } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords } from '../../src/data/mirror/mirror.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { nextTryWord } from '../../src/domain/callOutcome.ts';
import { callTime, clockTime } from '../../src/features/homes/callTime.ts';
import { cardCallState } from '../../src/features/homes/homeNotices.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { callSettingsRecord, houseRecord } from '../support/records.ts';

const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

const stamp = '2026-01-01 00:00:00.000Z';

describe('the rules', () => {
  const row = (call: string, progress: CallRecord['progress'], status: CallRecord['status'] = 'busy') => ({
    call,
    progress,
    status,
    outcome: progress === 'done' ? ('busy' as const) : ('' as const),
    acknowledged: false,
  });

  test('without a call just placed, the mirror decides', () => {
    expect(cardCallState(undefined, undefined)).toBe('none');
    expect(cardCallState(row('c1', 'calling', 'ringing'), undefined)).toBe('calling');
    expect(cardCallState(row('c1', 'waiting'), undefined)).toBe('waiting');
    expect(cardCallState(row('c1', 'done'), undefined)).toBe('over');
    // A call from before attempts: its provider status.
    expect(cardCallState(row('c1', '', 'ringing'), undefined)).toBe('calling');
    expect(cardCallState(row('c1', '', 'completed'), undefined)).toBe('over');
  });

  test('a call just placed is in progress until the mirror has it, then the mirror alone decides', () => {
    // Not in the mirror yet: in progress, whatever the previous call said.
    expect(cardCallState(undefined, 'c2')).toBe('calling');
    expect(cardCallState(row('c1', 'done'), 'c2')).toBe('calling');
    // The server named no call: the marker holds until its timer.
    expect(cardCallState(row('c1', 'done'), '')).toBe('calling');
    // In the mirror: its own state, at once — an ended call is over, never still in progress.
    expect(cardCallState(row('c2', 'done'), 'c2')).toBe('over');
    expect(cardCallState(row('c2', 'waiting'), 'c2')).toBe('waiting');
    expect(cardCallState(row('c2', 'calling', 'ringing'), 'c2')).toBe('calling');
  });

  const attempt = (state: string, outcome = '', due_at = '') => ({ state, outcome, due_at, ended_at: '' });
  const clock = (date: string) => date.slice(11, 16);

  test("a waiting job in words: the last attempt's outcome and the next one's time", () => {
    const due = '2026-11-27 08:00:00.000Z';
    expect(nextTryWord([attempt('ended', 'busy'), attempt('scheduled', '', due)], clock)).toBe('Busy — next try 08:00');
    expect(
      nextTryWord([attempt('ended', 'busy'), attempt('ended', 'no_answer'), attempt('scheduled', '', due)], clock),
    ).toBe('No answer — next try 08:00');
    expect(nextTryWord([attempt('ended', 'failed'), attempt('scheduled', '', due)], clock)).toBe(
      'Failed — next try 08:00',
    );
    // The first phone passed over (do-not-call since): no outcome to say.
    expect(nextTryWord([attempt('skipped'), attempt('scheduled', '', due)], clock)).toBe('Next try 08:00');
    // The attempts not in the mirror yet.
    expect(nextTryWord([], clock)).toBe('Waiting to call again');
  });

  test("the next try's time is the clock alone, 24-hour, on this device's time, even tomorrow", () => {
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    tomorrow.setHours(8, 0, 0, 0);
    expect(clockTime(pbDate(tomorrow))).toBe('08:00');
    tomorrow.setHours(17, 5);
    expect(clockTime(pbDate(tomorrow))).toBe('17:05');
    // 'Call history' and 'Last call' keep the day for another day.
    expect(callTime(pbDate(tomorrow))).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 17:05$/);
    expect(clockTime('')).toBe('');
  });
});

// ---- the Homes screen ----------------------------------------------------------------------------

let db: ScmsDatabase;
let status = { online: true, syncing: false, authRequired: false, lastError: null };
let dbCount = 0;

function signInAs(type: 'director' | 'manager' | 'regular') {
  pb.authStore.save('token', { id: 'u1', community: 'c1', type, collectionId: 'users', collectionName: 'users' });
}

beforeEach(async () => {
  signInAs('manager');
  db = new ScmsDatabase(`card-call-states-${++dbCount}`);
  status = { online: true, syncing: false, authRequired: false, lastError: null };
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  await db.communities.put({ id: 'c1', name: 'Palm Shores', address: '', created: '', updated: '' });
  await db.houses.put(houseRecord());
  await db.phones.put({
    id: 'p-h1',
    created: stamp,
    updated: stamp,
    phone_number: '+15615550100',
    primary: true,
    type: 'cell',
    house: 'h1',
  });
  await db.users.put({
    id: 'u2',
    created: stamp,
    updated: stamp,
    email: 'mia@scms.test',
    emailVisibility: true,
    verified: true,
    first_name: 'Mia',
    last_name: 'Stone',
    type: 'manager',
    community: 'c1',
  });
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  pb.authStore.clear();
  db.close();
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/homes']}>
      <ToastProvider>
        <HomesPage />
      </ToastProvider>
    </MemoryRouter>,
  );
}

const callRecord = (id: string, fields: Partial<CallRecord> = {}): CallRecord => ({
  id,
  created: pbDate(new Date()),
  updated: pbDate(new Date()),
  house: 'h1',
  community: 'c1',
  concerns: ['k1'],
  to_number: '+15615550100',
  script: 'Your garage is open.',
  status: 'busy',
  provider_call_id: '',
  error: '',
  created_by: 'u1',
  progress: 'done',
  outcome: 'busy',
  acknowledged: false,
  text_sent: false,
  ...fields,
});

const attemptRecord = (call: string, sequence: number, fields: Partial<CallAttemptRecord> = {}): CallAttemptRecord => ({
  id: `${call}-a${sequence}`,
  created: stamp,
  updated: stamp,
  call,
  house: 'h1',
  community: 'c1',
  sequence,
  phone: 'p-h1',
  to_number: '+15615550100',
  phone_type: 'cell',
  state: 'ended',
  due_at: '',
  provider_call_id: '',
  provider_status: 'busy',
  answered_by: '',
  started_at: '',
  ended_at: stamp,
  duration: 0,
  outcome: 'busy',
  acknowledged: false,
  reason: '',
  ...fields,
});

const put = (collection: 'calls' | 'call_attempts', records: object[]) =>
  act(() => applyServerRecords(db, collection, records as RecordModel[]));

const card = async () => screen.findByRole('article', { name: /12 Palm Way/ });
const notice = (article: HTMLElement) => within(article).queryByRole('group', { name: 'Notice' });

describe('one state on the card', () => {
  test("a call placed from this device: 'Call in progress...' without the previous call's word, and the end replaces it at once", async () => {
    const user = userEvent.setup();
    await db.concerns.put({
      id: 'k1',
      created: stamp,
      updated: stamp,
      name: 'Garage open',
      hint: '',
      say: '<p>Your garage is open.</p>',
      added_by: 'u1',
      community: 'c1',
    });
    // Quiet hours far from now, whatever hour the test runs: the call is not asked about.
    await db.call_settings.put(callSettingsRecord());
    // The previous call of the home went to voicemail.
    await put('calls', [callRecord('call1', { created: '2026-01-01 10:00:00.000Z', outcome: 'voicemail' })]);
    vi.spyOn(pb, 'send').mockResolvedValue({ code: 200, message: 'Call placed to the resident', call_id: 'call2' });
    renderPage();
    const article = await card();
    await within(article).findByText('Voicemail');

    await user.click(within(article).getByRole('button', { name: /^Call resident of / }));
    // The sheet is loaded when first opened.
    const sheet = await screen.findByRole('dialog', { name: 'Select concerns' }, { timeout: 15_000 });
    await user.click(await within(sheet).findByRole('checkbox', { name: /^Garage open/ }));
    const reach = within(sheet).getByRole('button', { name: 'Reach Out To Resident' }) as HTMLButtonElement;
    await waitFor(() => expect(reach.disabled).toBe(false));
    await user.click(reach);
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to call the resident?' });
    await user.click(within(confirm).getByRole('button', { name: 'Call' }));

    // Placed, not in the mirror yet: in progress, and the previous call's word is not beside it.
    await waitFor(() => expect(notice(article)?.textContent).toContain('Call in progress...'));
    expect(article.textContent).not.toContain('Last call:');

    // The call reaches the mirror, rings, and ends: its outcome replaces the marker at once,
    // long before the marker's 20-second timer.
    await put('calls', [callRecord('call2', { progress: 'calling', status: 'ringing', outcome: '' })]);
    expect(notice(article)?.textContent).toContain('Call in progress...');
    expect(article.textContent).not.toContain('Last call:');
    await put('calls', [callRecord('call2', { progress: 'done', status: 'completed', outcome: 'voicemail' })]);
    await waitFor(() => expect(notice(article)).toBeNull());
    expect(within(article).getByText(/^Last call:/).textContent).toBe('Last call: Voicemail');
  });

  test('a call from the mirror: in progress, then over, never both', async () => {
    await put('calls', [callRecord('call1', { progress: 'calling', status: 'in-progress', outcome: '' })]);
    renderPage();
    const article = await card();
    await waitFor(() => expect(notice(article)?.textContent).toContain('Call in progress...'));
    expect(article.textContent).not.toContain('Last call:');
    await put('calls', [callRecord('call1', { progress: 'done', status: 'completed', outcome: 'voicemail' })]);
    await waitFor(() => expect(notice(article)).toBeNull());
    expect(article.textContent).toContain('Last call: Voicemail');
  });
});

describe('a call waiting for its next try', () => {
  const due = new Date();
  due.setDate(due.getDate() + 1);
  due.setHours(8, 0, 0, 0);

  async function waiting() {
    await put('calls', [callRecord('call1', { progress: 'waiting', status: 'busy', outcome: '' })]);
    await put('call_attempts', [
      attemptRecord('call1', 1),
      attemptRecord('call1', 2, {
        state: 'scheduled',
        outcome: '',
        ended_at: '',
        provider_status: '',
        due_at: pbDate(due),
      }),
    ]);
  }

  test("says 'Busy — next try 08:00', not 'Call in progress...', and no Last call word", async () => {
    await waiting();
    renderPage();
    const article = await card();
    await waitFor(() => expect(notice(article)?.textContent).toContain('Busy — next try 08:00'));
    expect(article.textContent).not.toContain('Call in progress...');
    expect(article.textContent).not.toContain('Last call:');
    expect(notice(article)?.querySelector('.animate-pulse')).toBeNull();
  });

  test('an officer has no Cancel retries', async () => {
    signInAs('regular');
    await waiting();
    renderPage();
    const article = await card();
    await waitFor(() => expect(notice(article)?.textContent).toContain('Busy — next try 08:00'));
    expect(within(article).queryByRole('button', { name: /^Cancel retries/ })).toBeNull();
  });

  test('offline, Cancel retries is there but off, with the reason', async () => {
    status = { ...status, online: false };
    await waiting();
    renderPage();
    const button = (await within(await card()).findByRole('button', {
      name: 'Cancel retries of 12 Palm Way, Jupiter, FL 33458',
    })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.title).toBe('You are offline — cancelling retries needs a connection.');
    expect(button.getAttribute('aria-description')).toBe(button.title);
  });

  test("a manager cancels: the server is asked, the card says how the call ended, and 'Call history' says who and when", async () => {
    const user = userEvent.setup();
    await waiting();
    const cancelledAt = pbDate(new Date());
    const send = vi.spyOn(pb, 'send').mockResolvedValue({
      code: 200,
      message: 'Retries cancelled',
      call: callRecord('call1', {
        progress: 'done',
        outcome: 'busy',
        retries_cancelled_by: 'u2',
        retries_cancelled_at: cancelledAt,
      }),
      attempts: [
        attemptRecord('call1', 1),
        attemptRecord('call1', 2, {
          state: 'skipped',
          outcome: '',
          ended_at: '',
          due_at: pbDate(due),
          reason: 'Not called: the retries were cancelled.',
        }),
      ],
    });
    renderPage();
    const article = await card();
    await user.click(await within(article).findByRole('button', { name: /^Cancel retries/ }));
    expect(send).toHaveBeenCalledWith('/api/scms/call-retries/cancel', { method: 'POST', body: { h_id: 'h1' } });
    expect(await screen.findByText('Retries cancelled')).toBeTruthy();
    await waitFor(() => expect(notice(article)).toBeNull());
    expect(article.textContent).toContain('Last call: Busy');
    expect(within(article).queryByRole('button', { name: /^Cancel retries/ })).toBeNull();

    await user.click(within(article).getByRole('button', { name: 'Call history' }));
    const history = await screen.findByRole('dialog', { name: 'Call history' }, { timeout: 15_000 });
    expect(await within(history).findByText(`Retries cancelled by Mia Stone · ${callTime(cancelledAt)}`)).toBeTruthy();
    expect(within(history).getByText('Not called: the retries were cancelled.')).toBeTruthy();
  });

  test("a refusal is told in the server's words and the card stays as it was", async () => {
    const user = userEvent.setup();
    await waiting();
    const message = 'The home is being called right now. Its retries can be cancelled while it waits for the next try.';
    vi.spyOn(pb, 'send').mockRejectedValue(
      new ClientResponseError({ status: 409, response: { status: 409, message, data: {} } }),
    );
    renderPage();
    const article = await card();
    await user.click(await within(article).findByRole('button', { name: /^Cancel retries/ }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(notice(article)?.textContent).toContain('Busy — next try 08:00');
    expect((within(article).getByRole('button', { name: /^Cancel retries/ }) as HTMLButtonElement).disabled).toBe(
      false,
    );
  });
});
