// @vitest-environment jsdom
/**
 * The Homes screen over a real (fake-indexeddb) mirror: the list, the
 * Select concerns sheet with its three-concern limit and the call, the
 * House check dialog, and Add Home through the outbox.
 */
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import userEvent from '@testing-library/user-event';
import { ClientResponseError, type RecordModel } from 'pocketbase';
import { addDays, startOfDay } from 'date-fns';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { MemoryRouter } from 'react-router-dom';
import { pb } from '../../src/api/client.ts';
import type { ConcernRecord, HouseRecord, PhoneRecord, ResidentRecord } from '../../src/api/records.ts';
import { ScmsDatabase } from '../../src/data/mirror/db.ts';
import { applyServerRecords } from '../../src/data/mirror/mirror.ts';
import { pbDate } from '../../src/data/sync/pull.ts';
import { HomesPage } from '../../src/features/homes/HomesPage.tsx';
import { SelectConcernsSheet } from '../../src/features/homes/SelectConcernsSheet.tsx';
import { ToastProvider } from '../../src/ui/toast.tsx';
import { callSettingsRecord, houseRecord, quietHoursFrom } from '../support/records.ts';

// The screens take the mirror from the sync engine; here a stand-in with a real Dexie database.
const engine = vi.hoisted(() => ({ current: null as unknown }));
vi.mock('../../src/data/DataProvider.tsx', () => ({ useSyncEngine: () => engine.current }));

let db: ScmsDatabase;
let status = { online: true, syncing: false, authRequired: false, lastError: null };
let dbCount = 0;

beforeAll(() => {
  pb.authStore.save('token', { id: 'u1', community: 'c1', collectionId: 'users', collectionName: 'users' });
});

beforeEach(async () => {
  db = new ScmsDatabase(`homes-test-${++dbCount}`);
  status = { online: true, syncing: false, authRequired: false, lastError: null };
  engine.current = { db, subscribe: () => () => undefined, getStatus: () => status };
  await db.communities.put({ id: 'c1', name: 'Palm Shores', address: '', created: '', updated: '' });
});

afterEach(async () => {
  cleanup();
  vi.restoreAllMocks();
  db.close();
});

const stamp = '2026-01-01 00:00:00.000Z';

const house = houseRecord;
const phone = (houseId: string): PhoneRecord => ({
  id: `p-${houseId}`,
  created: stamp,
  updated: stamp,
  phone_number: '+15615550100',
  primary: true,
  type: 'cell',
  house: houseId,
});
const resident = (houseId: string): ResidentRecord => ({
  id: `r-${houseId}`,
  created: stamp,
  updated: stamp,
  first_name: 'Ann',
  last_name: 'Lee',
  owner: true,
  house: houseId,
});
const concern = (id: string, name: string): ConcernRecord => ({
  id,
  created: stamp,
  updated: stamp,
  name,
  hint: `${name} hint`,
  say: `<p>${name} said.</p>`,
  added_by: 'u1',
  community: 'c1',
});

const CONCERNS = [
  concern('k1', 'Garage open'),
  concern('k2', 'Lights on'),
  concern('k3', 'Package left'),
  concern('k4', 'Water leak'),
];

// While a sheet is open Headless UI hides everything outside it, the toast area included: `hidden: true` finds toasts there.
// In a router: the screen links to today's house checks.
function renderWithToasts(ui: React.ReactNode) {
  return render(
    <MemoryRouter initialEntries={['/homes']}>
      <ToastProvider>{ui}</ToastProvider>
    </MemoryRouter>,
  );
}

describe('homes list', () => {
  test('count, cards, search over the mirror, and the empty notice', async () => {
    const user = userEvent.setup();
    await db.houses.bulkPut([
      house(),
      house({ id: 'h2', address: '7 Ocean Dr', city: 'Tequesta', member_number: 'M-9' }),
    ]);
    await db.phones.put(phone('h1'));
    renderWithToasts(<HomesPage />);
    expect(await screen.findByText('Showing 2 home(s)')).toBeTruthy();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    // Only the home without phones says so.
    expect(
      within(screen.getByRole('article', { name: /7 Ocean Dr/ })).getByText('Primary phone number missing'),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: /12 Palm Way/ })).queryByText('Primary phone number missing'),
    ).toBeNull();

    // A phone neither corrects nor capitalises what is typed (a member number, a code, a street).
    const box = screen.getByPlaceholderText('Search homes...');
    expect([
      box.getAttribute('spellcheck'),
      box.getAttribute('autocorrect'),
      box.getAttribute('autocapitalize'),
    ]).toEqual(['false', 'off', 'none']);
    await user.type(screen.getByPlaceholderText('Search homes...'), 'm-9');
    expect(await screen.findByText('Showing 1 home(s)')).toBeTruthy();
    await user.clear(screen.getByPlaceholderText('Search homes...'));
    await user.type(screen.getByPlaceholderText('Search homes...'), 'nowhere');
    expect(await screen.findByText('No homes found')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Add Home' })).toHaveLength(2);
  });

  test('a call in the mirror that has not ended shows Call in progress...', async () => {
    await db.houses.put(house());
    await db.phones.put(phone('h1'));
    // Calls reach the mirror as server records (realtime, pulls), which keep each home's newest call.
    const call = {
      id: 'call1',
      created: pbDate(new Date()),
      updated: stamp,
      house: 'h1',
      community: 'c1',
      concerns: ['k1'],
      to_number: '+15615550100',
      script: '',
      status: 'ringing',
      provider_call_id: '',
      error: '',
      created_by: 'u1',
    };
    await applyServerRecords(db, 'calls', [call as unknown as RecordModel]);
    renderWithToasts(<HomesPage />);
    expect(await screen.findByText('Call in progress...')).toBeTruthy();
    await act(() => applyServerRecords(db, 'calls', [{ ...call, status: 'completed' } as unknown as RecordModel]));
    await waitFor(() => expect(screen.queryByText('Call in progress...')).toBeNull());
  });

  test('a home without a phone cannot be called: Call is off with the reason, before any concern is chosen', async () => {
    await db.houses.bulkPut([house(), house({ id: 'h2', address: '7 Ocean Dr' })]);
    await db.phones.put(phone('h1'));
    renderWithToasts(<HomesPage />);
    const without = within(await screen.findByRole('article', { name: /7 Ocean Dr/ })).getByRole('button', {
      name: /^Call resident/,
    }) as HTMLButtonElement;
    expect(without.disabled).toBe(true);
    expect(without.getAttribute('aria-description')).toBe('No phone number to call: add one with Edit.');
    expect(without.title).toBe('No phone number to call: add one with Edit.');
    const withPhone = within(screen.getByRole('article', { name: /12 Palm Way/ })).getByRole('button', {
      name: /^Call resident/,
    }) as HTMLButtonElement;
    expect(withPhone.disabled).toBe(false);
  });

  test('offline, calls are disabled with the reason shown', async () => {
    status = { ...status, online: false };
    await db.houses.put(house());
    renderWithToasts(<HomesPage />);
    expect(await screen.findByText('You are offline — calls need a connection.')).toBeTruthy();
    expect(((await screen.findByRole('button', { name: /^Call resident/ })) as HTMLButtonElement).disabled).toBe(true);
  });

  test('Add Home queues the home, its resident and its phone, and toasts', async () => {
    const user = userEvent.setup();
    renderWithToasts(<HomesPage />);
    await user.click(await screen.findByRole('button', { name: 'Add Home' }));
    const sheet = await screen.findByRole('dialog', { name: 'Add Home' });
    await user.type(within(sheet).getByLabelText('Address'), '1 Ocean Dr');
    await user.type(within(sheet).getByLabelText('City'), 'Tequesta');
    await user.type(within(sheet).getByLabelText('Zip'), '33469');
    await user.type(within(sheet).getByLabelText('First name'), 'Ann');
    await user.type(within(sheet).getByLabelText('Last name'), 'Lee');
    await user.type(within(sheet).getByLabelText('Member number'), 'M-1');
    await user.type(within(sheet).getByLabelText('Phone number'), '5615550100');
    await user.click(within(sheet).getByRole('button', { name: 'Add Home' }));
    expect(await screen.findByText('New home added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Home' })).toBeNull());
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops.map((op) => `${op.action} ${op.collection}`)).toEqual([
      'create houses',
      'create residents',
      'create phones',
    ]);
    expect(entry?.ops[0]?.body).toMatchObject({
      address: '1 Ocean Dr',
      state: 'FL',
      member_number: 'M-1',
      community: 'c1',
    });
    expect(entry?.ops[2]?.body).toMatchObject({ phone_number: '+15615550100', type: 'cell', primary: true });
    // The mirror shows it at once, marked as not yet sent.
    const card = await screen.findByRole('article', { name: /1 Ocean Dr/ });
    expect(within(card).getByText('Not yet sent')).toBeTruthy();
  });
});

describe('homes order', () => {
  test('addresses by street, number and apt; or house check due first', async () => {
    const user = userEvent.setup();
    const today = startOfDay(new Date());
    await db.houses.bulkPut([
      house({ id: 'a', address: '102 Heron Way' }),
      house({
        id: 'b',
        address: '101 Osprey Ln',
        house_check: true,
        house_check_start_date: pbDate(addDays(today, -1)),
        house_check_end_date: pbDate(addDays(today, 2)),
      }),
      house({ id: 'c', address: '101 Banyan Cir' }),
      house({ id: 'd', address: '9 Heron Way' }),
    ]);
    renderWithToasts(<HomesPage />);
    const order = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent?.split(',')[0]);
    await screen.findByText('Showing 4 home(s)');
    const sort = screen.getByLabelText('Sort by') as HTMLSelectElement;
    expect(sort.value).toBe('address');
    expect(order()).toEqual(['101 Banyan Cir', '9 Heron Way', '102 Heron Way', '101 Osprey Ln']);
    await user.selectOptions(sort, 'House check due first');
    expect(order()).toEqual(['101 Osprey Ln', '101 Banyan Cir', '9 Heron Way', '102 Heron Way']);
  });
});

describe('deleting a home', () => {
  const asDirector = () =>
    pb.authStore.save('token', {
      id: 'u1',
      community: 'c1',
      type: 'director',
      collectionId: 'users',
      collectionName: 'users',
    });
  afterEach(() =>
    pb.authStore.save('token', { id: 'u1', community: 'c1', collectionId: 'users', collectionName: 'users' }),
  );

  test('only directors see Delete', async () => {
    await db.houses.put(house());
    renderWithToasts(<HomesPage />);
    await screen.findByText('Showing 1 home(s)');
    expect(screen.queryByRole('button', { name: /^Delete/ })).toBeNull();
  });

  test('the confirmation names the address; Delete queues it, the card goes at once, and a toast says so', async () => {
    asDirector();
    const user = userEvent.setup();
    await db.houses.bulkPut([house(), house({ id: 'h2', address: '7 Ocean Dr' })]);
    await db.residents.put(resident('h1'));
    renderWithToasts(<HomesPage />);
    await user.click(await screen.findByRole('button', { name: 'Delete 12 Palm Way, Jupiter, FL 33458' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete home?' });
    expect(within(dialog).getByText('12 Palm Way, Jupiter, FL 33458')).toBeTruthy();
    // Cancel keeps it.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await db.outbox.count()).toBe(0);

    await user.click(screen.getByRole('button', { name: 'Delete 12 Palm Way, Jupiter, FL 33458' }));
    const again = await screen.findByRole('dialog', { name: 'Delete home?' });
    await waitFor(() =>
      expect((within(again).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(false),
    );
    await user.click(within(again).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Home deleted')).toBeTruthy();
    expect(await screen.findByText('Showing 1 home(s)')).toBeTruthy();
    expect(screen.queryByRole('article', { name: /12 Palm Way/ })).toBeNull();
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({
      label: 'Delete home: 12 Palm Way',
      ops: [{ action: 'delete', collection: 'houses', id: 'h1' }],
    });
  });

  test('a home with reports cannot be deleted: the dialog says how many and Delete stays off', async () => {
    asDirector();
    const user = userEvent.setup();
    await db.houses.put(house());
    for (const id of ['rep1', 'rep2']) {
      await db.reports.put({
        id,
        created: stamp,
        updated: stamp,
        narative: 'x',
        ai_generated_narative: '',
        type: 'loud_noise',
        weather: 'clear',
        incident_time: stamp,
        phone_number: '',
        injury: false,
        ems_pbso: false,
        photos: [],
        community: 'c1',
        house: 'h1',
        resident: '',
        created_by: 'u1',
      });
    }
    renderWithToasts(<HomesPage />);
    await user.click(await screen.findByRole('button', { name: /^Delete 12 Palm Way/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete home?' });
    expect(await within(dialog).findByText('This home has 2 report(s) and cannot be deleted.')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await db.outbox.count()).toBe(0);
    expect(await db.houses.get('h1')).toBeTruthy();
  });
});

describe('house check dialog', () => {
  test('Submit waits for yes or no; submitting queues the check and the due notice goes away', async () => {
    const user = userEvent.setup();
    const today = startOfDay(new Date());
    await db.houses.put(
      house({
        note: 'Side gate sticks',
        house_check: true,
        house_check_start_date: pbDate(addDays(today, -2)),
        house_check_end_date: pbDate(addDays(today, 3)),
        house_check_note: 'Owners abroad',
      }),
    );
    await db.phones.put(phone('h1'));
    await db.residents.put(resident('h1'));
    renderWithToasts(<HomesPage />);
    await user.click(await screen.findByRole('button', { name: 'House check' }));
    const dialog = await screen.findByRole('dialog', { name: 'House Check' });
    expect(within(dialog).getByText('12 Palm Way, Jupiter, FL 33458')).toBeTruthy();
    expect(within(dialog).getByText('Side gate sticks')).toBeTruthy();
    expect(within(dialog).getByText('Owners abroad')).toBeTruthy();
    const submit = within(dialog).getByRole('button', { name: 'Submit' }) as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.click(within(dialog).getByRole('radio', { name: 'No' }));
    expect(submit.disabled).toBe(false);
    await user.type(within(dialog).getByLabelText('Remark'), 'Back door unlocked');
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'House Check' })).toBeNull());
    await waitFor(() => expect(screen.queryByRole('button', { name: 'House check' })).toBeNull());
    // Confirmed on the page once the dialog has gone.
    const toast = within(screen.getByRole('region', { name: 'Notifications (F8)' }));
    await toast.findByText('Success');
    expect(toast.getByText('House check saved')).toBeTruthy();
    const [entry] = await db.outbox.toArray();
    expect(entry?.ops.map((op) => `${op.action} ${op.collection}`)).toEqual(['create reports', 'update houses']);
    expect(entry?.ops[0]?.body).toMatchObject({
      type: 'house_check',
      narative: 'Back door unlocked',
      house: 'h1',
      resident: 'r-h1',
      created_by: 'u1',
    });
  });

  test('offline, the toast says the check is kept on this device until the connection is back', async () => {
    const user = userEvent.setup();
    status = { ...status, online: false };
    const today = startOfDay(new Date());
    await db.houses.put(
      house({
        house_check: true,
        house_check_start_date: pbDate(addDays(today, -2)),
        house_check_end_date: pbDate(addDays(today, 3)),
      }),
    );
    renderWithToasts(<HomesPage />);
    await user.click(await screen.findByRole('button', { name: 'House check' }));
    const dialog = await screen.findByRole('dialog', { name: 'House Check' });
    await user.click(within(dialog).getByRole('radio', { name: 'Yes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'House Check' })).toBeNull());
    const toast = within(screen.getByRole('region', { name: 'Notifications (F8)' }));
    await toast.findByText('Success');
    expect(toast.getByText('House check saved on this device; it will be sent when you are back online.')).toBeTruthy();
    expect(await db.outbox.count()).toBe(1);
  });
});

describe('select concerns sheet', () => {
  /** The community's call settings in the mirror; by default quiet hours far from now, whatever hour the test runs. */
  async function saveCallSettings(quiet = quietHoursFrom(12, 1)) {
    await db.call_settings.put(callSettingsRecord(quiet));
  }

  async function openSheet(overrides: Partial<HouseRecord> = {}, phones: PhoneRecord[] = [phone('h1')]) {
    await db.concerns.bulkPut(CONCERNS);
    if (!(await db.call_settings.count())) await saveCallSettings();
    const onClose = vi.fn();
    const onCallPlaced = vi.fn();
    // Closing takes the sheet away, as the Homes screen does.
    function Opened() {
      const [open, setOpen] = useState(true);
      if (!open) return null;
      return (
        <SelectConcernsSheet
          home={{ house: house(overrides), residents: [], phones }}
          onClose={() => {
            onClose();
            setOpen(false);
          }}
          onCallPlaced={onCallPlaced}
        />
      );
    }
    renderWithToasts(<Opened />);
    await screen.findByRole('list', { name: 'Concerns' });
    return { onClose, onCallPlaced };
  }
  const box = (name: string) => screen.getByRole('checkbox', { name: new RegExp(`^${name}`) }) as HTMLInputElement;
  const chips = () =>
    within(screen.queryByRole('list', { name: 'Chosen concerns' }) ?? document.createElement('ul'))
      .queryAllByRole('listitem')
      .map((li) => li.firstChild?.textContent);

  test('Loading concerns... until the mirror answers', async () => {
    renderWithToasts(
      <SelectConcernsSheet
        home={{ house: house(), residents: [], phones: [] }}
        onClose={vi.fn()}
        onCallPlaced={vi.fn()}
      />,
    );
    expect(screen.getByText('Loading concerns...')).toBeTruthy();
    expect(await screen.findByText('No concerns found')).toBeTruthy();
  });

  test('a fourth concern is refused with the limit message', async () => {
    const user = userEvent.setup();
    await openSheet();
    const reach = screen.getByRole('button', { name: 'Reach Out To Resident' }) as HTMLButtonElement;
    expect(reach.disabled).toBe(true);
    for (const name of ['Garage open', 'Lights on', 'Package left']) await user.click(box(name));
    expect(chips()).toEqual(['Garage open', 'Lights on', 'Package left']);
    expect(reach.disabled).toBe(false);
    await user.click(box('Water leak'));
    const toast = await screen.findByRole('alert', { hidden: true });
    expect(toast.textContent).toContain('Limit Exceeded: Only three concerns can be selected at a time.');
    expect(box('Water leak').checked).toBe(false);
    expect(chips()).toHaveLength(3);
    // A chip's remove button makes room again.
    await user.click(screen.getByRole('button', { name: 'Remove Lights on' }));
    await user.click(box('Water leak'));
    expect(chips()).toEqual(['Garage open', 'Package left', 'Water leak']);
  });

  test('pre-selected from the pending ids; search filters by name; the script preview', async () => {
    const user = userEvent.setup();
    await openSheet({ pending_call_concerns_ids: 'k2,k4' });
    expect(chips()).toEqual(['Lights on', 'Water leak']);
    expect(box('Lights on').checked).toBe(true);
    expect(
      screen.getByText(
        'Hello. This is Palm Shores security team. Lights on said. Water leak said. Thank you. Good bye.',
      ),
    ).toBeTruthy();
    await user.type(screen.getByPlaceholderText('Search concerns...'), 'garage');
    expect(within(screen.getByRole('list', { name: 'Concerns' })).getAllByRole('checkbox')).toHaveLength(1);
    // Chosen concerns stay chosen while filtered out.
    expect(chips()).toEqual(['Lights on', 'Water leak']);
  });

  test('Call asks first, posts the documented body, toasts the server message and marks the call', async () => {
    const user = userEvent.setup();
    const send = vi.spyOn(pb, 'send').mockResolvedValue({ code: 200, message: 'Call placed to the resident' });
    const { onClose, onCallPlaced } = await openSheet();
    await user.click(box('Garage open'));
    await user.click(screen.getByRole('button', { name: 'Reach Out To Resident' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to call the resident?' });
    expect(send).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: 'Call' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(send).toHaveBeenCalledWith('/api/scms/call-resident', {
      method: 'POST',
      body: { h_id: 'h1', concerns: [{ id: 'k1', name: 'Garage open', selected: true }] },
    });
    expect(onCallPlaced).toHaveBeenCalledOnce();
    // The result shows once the question has closed (src/ui/toast.tsx).
    expect(await screen.findByText('Call placed to the resident')).toBeTruthy();
    expect(screen.getByText('Success')).toBeTruthy();
  });

  test("in the community's quiet hours the confirmation asks with the resident's time, and a yes overrides them", async () => {
    const user = userEvent.setup();
    const quiet = quietHoursFrom(-1, 3);
    await saveCallSettings(quiet);
    const send = vi.spyOn(pb, 'send').mockResolvedValue({ code: 200, message: 'Call placed to the resident' });
    const { onClose } = await openSheet();
    await user.click(box('Garage open'));
    await user.click(screen.getByRole('button', { name: 'Reach Out To Resident' }));
    const now = new Date();
    const local = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
    // It says why it asks: the resident's time falls in the community's quiet hours, named.
    const confirm = await screen.findByRole('dialog', {
      name: `It is ${local} for the resident, within the community's quiet hours (${quiet.quiet_start}–${quiet.quiet_end}). Call anyway?`,
    });
    expect(send).not.toHaveBeenCalled();
    await user.click(within(confirm).getByRole('button', { name: 'Call anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(send).toHaveBeenCalledWith('/api/scms/call-resident', {
      method: 'POST',
      body: {
        h_id: 'h1',
        concerns: [{ id: 'k1', name: 'Garage open', selected: true }],
        override_quiet_hours: true,
      },
    });
  });

  test("quiet hours the mirror does not know yet: the server's question is asked, then the call placed on a yes", async () => {
    const user = userEvent.setup();
    const question = "It is 22:14 for the resident, within the community's quiet hours (21:00–08:00). Call anyway?";
    const send = vi
      .spyOn(pb, 'send')
      .mockRejectedValueOnce(
        new ClientResponseError({
          status: 409,
          response: {
            status: 409,
            message: question,
            data: {
              override_quiet_hours: {
                code: 'confirm_quiet_hours',
                message: question,
                local_time: '22:14',
                quiet_start: '21:00',
                quiet_end: '08:00',
              },
            },
          },
        }),
      )
      .mockResolvedValueOnce({ code: 200, message: 'Call placed to the resident' });
    const { onClose, onCallPlaced } = await openSheet();
    await user.click(box('Garage open'));
    await user.click(screen.getByRole('button', { name: 'Reach Out To Resident' }));
    const confirm = await screen.findByRole('dialog', { name: 'Are you sure you want to call the resident?' });
    await user.click(within(confirm).getByRole('button', { name: 'Call' }));
    const asked = await screen.findByRole('dialog', { name: question });
    expect(onCallPlaced).not.toHaveBeenCalled();
    await user.click(within(asked).getByRole('button', { name: 'Call anyway' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(send).toHaveBeenCalledTimes(2);
    expect(send.mock.calls[0]![1]!.body).not.toHaveProperty('override_quiet_hours');
    expect(send.mock.calls[1]![1]!.body).toMatchObject({ override_quiet_hours: true });
    expect(onCallPlaced).toHaveBeenCalledOnce();
  });

  test('numbers in the order they are tried, do-not-call ones with why; none callable, no call', async () => {
    const user = userEvent.setup();
    const number = (id: string, phone_number: string, fields: Partial<PhoneRecord>): PhoneRecord => ({
      ...phone('h1'),
      id,
      phone_number,
      primary: false,
      ...fields,
    });
    await openSheet({}, [
      number('p3', '+15615550133', { type: 'business' }),
      number('p2', '+15615550122', { type: 'home', do_not_call: true }),
      number('p1', '+15615550111', { type: 'cell', primary: true }),
    ]);
    const list = screen.getByRole('region', { name: 'Numbers, in the order they are tried' });
    const rows = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(rows).toEqual([
      '(561) 555-0111(cell)',
      '(561) 555-0122(home)Not called: the resident asked not to be called on this number.',
      '(561) 555-0133(business)',
    ]);
    cleanup();
    await openSheet({}, [number('p2', '+15615550122', { type: 'home', primary: true, do_not_call: true })]);
    await user.click(box('Garage open'));
    expect((screen.getByRole('button', { name: 'Reach Out To Resident' }) as HTMLButtonElement).disabled).toBe(true);
    expect(
      screen.getByText("Not called: the resident asked not to be called on any of this home's numbers."),
    ).toBeTruthy();
  });

  test('Cancel does not call; a refused call toasts Fail with the server message', async () => {
    const user = userEvent.setup();
    const send = vi.spyOn(pb, 'send').mockRejectedValue(
      new ClientResponseError({
        status: 400,
        response: { error: true, code: 400, message: 'Primary phone number missing' },
      }),
    );
    const { onClose, onCallPlaced } = await openSheet();
    await user.click(box('Garage open'));
    await user.click(screen.getByRole('button', { name: 'Reach Out To Resident' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: /Are you sure/ })).getByRole('button', { name: 'Cancel' }),
    );
    expect(send).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Reach Out To Resident' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: /Are you sure/ })).getByRole('button', { name: 'Call' }),
    );
    const toast = await screen.findByRole('alert', { hidden: true });
    expect(toast.textContent).toContain('Fail');
    expect(toast.textContent).toContain('Primary phone number missing');
    expect(onClose).not.toHaveBeenCalled();
    expect(onCallPlaced).not.toHaveBeenCalled();
  });

  test('offline, Reach Out To Resident is disabled with the reason', async () => {
    status = { ...status, online: false };
    const user = userEvent.setup();
    await openSheet();
    await user.click(box('Garage open'));
    expect((screen.getByRole('button', { name: 'Reach Out To Resident' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('You are offline — calls need a connection.')).toBeTruthy();
  });
});
