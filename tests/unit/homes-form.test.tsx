// @vitest-environment jsdom
/** The home card and the Add / Update Home form, rendered: what shows when, and what is submitted. */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { HouseRecord } from '../../src/api/records.ts';
import type { HouseWithPeople } from '../../src/data/resources/homes.ts';
import { HomeCard } from '../../src/features/homes/HomeCard.tsx';
import { HomeForm } from '../../src/features/homes/HomeForm.tsx';
import { addDefaults, DO_NOT_CALL_HINT, type HomeFormValues } from '../../src/features/homes/homeFormValues.ts';
import { houseRecord } from '../support/records.ts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function house(overrides: Partial<HouseRecord> = {}): HouseRecord {
  return houseRecord({ apt: 'B', state: 'Ak', member_number: 'M-77', security_code: '4321', ...overrides });
}

function card(
  home: Partial<HouseWithPeople> & { house: HouseRecord },
  props: Partial<Parameters<typeof HomeCard>[0]> = {},
) {
  const handlers = {
    onCall: vi.fn(),
    onEdit: vi.fn(),
    onHouseCheck: vi.fn(),
    onCallHistory: vi.fn(),
    onHistory: vi.fn(),
  };
  render(
    <HomeCard
      home={{ residents: [], phones: [], ...home }}
      imageUrl={null}
      notices={[]}
      callDisabledReason={null}
      {...handlers}
      {...props}
    />,
  );
  return handlers;
}

describe('home card', () => {
  test('address line, residents, member number and security code', () => {
    card({
      house: house(),
      residents: [
        { id: 'r1', created: '', updated: '', first_name: 'Ann', last_name: 'Lee', owner: true, house: 'h1' },
        { id: 'r2', created: '', updated: '', first_name: 'Bob', last_name: 'Ray', owner: false, house: 'h1' },
      ],
    });
    expect(screen.getByRole('heading', { name: '12 Palm Way, B, Jupiter, AK 33458' })).toBeTruthy();
    const residents = within(screen.getByRole('list', { name: 'Residents' })).getAllByRole('listitem');
    expect(residents.map((li) => li.textContent)).toEqual(['Ann Lee', 'Bob Ray']);
    // The second name carries the divider.
    expect(residents[1]!.className).toContain('border-l');
    expect(screen.getByText('M-77')).toBeTruthy();
    expect(screen.getByText('4321')).toBeTruthy();
  });

  test('a long note is cut at 30 characters and toggles with show more / show less', async () => {
    const user = userEvent.setup();
    const note = 'Dog in the back yard, ring twice and wait at the gate';
    card({ house: house({ note }) });
    const paragraph = () =>
      screen.getByText((_, el) => el?.tagName === 'P' && (el.textContent ?? '').startsWith('Dog'));
    expect(paragraph().textContent).toBe(`${note.slice(0, 30)}… show more`);
    await user.click(screen.getByRole('button', { name: 'show more' }));
    expect(paragraph().textContent).toBe(`${note} show less`);
    await user.click(screen.getByRole('button', { name: 'show less' }));
    expect(paragraph().textContent).toBe(`${note.slice(0, 30)}… show more`);
  });

  test('a short note has no toggle', () => {
    card({ house: house({ note: 'Gate code 1234' }) });
    expect(screen.getByText('Gate code 1234')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /show/ })).toBeNull();
  });

  test('the notice area shows each notice, and House check opens the dialog', async () => {
    const user = userEvent.setup();
    const { onHouseCheck } = card(
      { house: house() },
      { notices: ['no-phone', 'call-pending', 'call-in-progress', 'house-check-due'] },
    );
    const area = screen.getByRole('group', { name: 'Notice' });
    expect(within(area).getByText('Primary phone number missing')).toBeTruthy();
    expect(within(area).getByText('Call pending')).toBeTruthy();
    expect(within(area).getByText('Call in progress...').querySelector('.animate-pulse')).not.toBeNull();
    await user.click(within(area).getByRole('button', { name: 'House check' }));
    expect(onHouseCheck).toHaveBeenCalledOnce();
  });

  test('no notices, no notice area', () => {
    card({ house: house() });
    expect(screen.queryByRole('group', { name: 'Notice' })).toBeNull();
  });

  test('offline, the call button is disabled with the reason', () => {
    card({ house: house() }, { callDisabledReason: 'You are offline — calls need a connection.' });
    const call = screen.getByRole('button', { name: /^Call/ }) as HTMLButtonElement;
    expect(call.disabled).toBe(true);
    expect(call.title).toBe('You are offline — calls need a connection.');
  });

  test('the default image replaces a missing or broken one', () => {
    card({ house: house() }, { imageUrl: '/api/files/houses/h1/x.jpg?thumb=400x300' });
    const img = screen.getByRole('img', { name: /Home at/ }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/api/files/houses/h1/x.jpg?thumb=400x300');
    fireEvent.error(img);
    expect(screen.getByRole('presentation').getAttribute('src')).toBe('/default-home.svg');
  });

  test('local changes not yet on the server are marked', () => {
    card({ house: { ...house(), _pending: 1 } as HouseRecord });
    expect(screen.getByText('Not yet sent')).toBeTruthy();
    cleanup();
    card({ house: house() });
    expect(screen.queryByText('Not yet sent')).toBeNull();
  });
});

function form(mode: 'add' | 'update', values: Partial<HomeFormValues> = {}, today?: Date) {
  const onSubmit = vi.fn(async (_values: HomeFormValues, _image: File | null | undefined) => undefined);
  render(
    <HomeForm
      mode={mode}
      defaultValues={{ ...addDefaults(), ...values }}
      submitLabel="Save"
      onSubmit={onSubmit}
      today={today}
    />,
  );
  return onSubmit;
}

describe('home form', () => {
  test('owner, member number and security code show only when both names have text', async () => {
    const user = userEvent.setup();
    form('add');
    const hidden = () =>
      ['Owner', 'Member number', 'Security code'].every((label) => screen.queryByLabelText(label) === null);
    expect(hidden()).toBe(true);
    await user.type(screen.getByLabelText('First name'), 'Ann');
    expect(hidden()).toBe(true);
    await user.type(screen.getByLabelText('Last name'), 'Lee');
    expect(screen.getByLabelText('Owner')).toBeTruthy();
    expect(screen.getByLabelText('Member number')).toBeTruthy();
    expect(screen.getByLabelText('Security code')).toBeTruthy();
    await user.clear(screen.getByLabelText('First name'));
    await user.type(screen.getByLabelText('First name'), '  ');
    expect(hidden()).toBe(true);
  });

  test('each resident row shows its own Owner once both its names have text', async () => {
    const user = userEvent.setup();
    form('add');
    await user.click(screen.getByRole('button', { name: 'Add resident' }));
    const second = screen.getByRole('group', { name: 'Resident 2' });
    await user.type(within(second).getByLabelText('First name'), 'Bob');
    await user.type(within(second).getByLabelText('Last name'), 'Ray');
    expect(within(second).getByLabelText('Owner')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Resident 1' })).queryByLabelText('Owner')).toBeNull();
    // The home's member number and security code show once any resident is named.
    expect(screen.getByLabelText('Member number')).toBeTruthy();
  });

  test('phone type and primary show only when a number is entered', async () => {
    const user = userEvent.setup();
    form('add');
    expect(screen.queryByLabelText('Type')).toBeNull();
    expect(screen.queryByLabelText('Primary')).toBeNull();
    await user.type(screen.getByLabelText('Phone number'), '5615550100');
    expect(screen.getByLabelText('Type')).toBeTruthy();
    expect(screen.getByLabelText('Primary')).toBeTruthy();
    // The country selector defaults to the US.
    expect((screen.getByRole('combobox', { name: 'Phone number country' }) as HTMLSelectElement).value).toBe('US');
  });

  // A home being updated, with three residents and a phone.
  const SAVED_HOME: Partial<HomeFormValues> = {
    address: '12 Palm Way',
    city: 'Jupiter',
    zip: '33458',
    residents: [
      { id: 'r1', first_name: 'Ann', last_name: 'Lee', owner: true },
      { id: 'r2', first_name: 'Bob', last_name: 'Lee', owner: false },
      { id: 'r3', first_name: 'Cy', last_name: 'Lee', owner: false },
    ],
    phones: [{ id: 'p1', phone_number: '+15615550100', type: 'cell', primary: true, do_not_call: false }],
  };

  test('update: every resident is there to edit, one is removed; the saved ones carry their id', async () => {
    const user = userEvent.setup();
    const onSubmit = form('update', SAVED_HOME);
    expect(screen.getAllByLabelText('First name').map((input) => (input as HTMLInputElement).value)).toEqual([
      'Ann',
      'Bob',
      'Cy',
    ]);
    // The third resident, beyond the first one the old form could reach, is edited…
    const third = screen.getByRole('group', { name: 'Resident 3' });
    await user.clear(within(third).getByLabelText('First name'));
    await user.type(within(third).getByLabelText('First name'), 'Cyrus');
    await user.click(within(third).getByLabelText('Owner'));
    // …and the second removed.
    await user.click(screen.getByRole('button', { name: 'Remove resident 2' }));
    expect(screen.getAllByLabelText('First name').map((input) => (input as HTMLInputElement).value)).toEqual([
      'Ann',
      'Cyrus',
    ]);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    const values = onSubmit.mock.calls[0]![0];
    expect(values.residents).toEqual([
      { id: 'r1', first_name: 'Ann', last_name: 'Lee', owner: true },
      { id: 'r3', first_name: 'Cyrus', last_name: 'Lee', owner: true },
    ]);
    expect(values.phones).toEqual(SAVED_HOME.phones);
  });

  test('update: a phone added beside the saved one is new (no id), not primary, and can be marked Do not call', async () => {
    const user = userEvent.setup();
    const onSubmit = form('update', SAVED_HOME);
    await user.click(screen.getByRole('button', { name: 'Add phone' }));
    const phone2 = screen.getByRole('group', { name: 'Phone 2' });
    await user.type(within(phone2).getByLabelText('Phone number'), '5615550199');
    await user.selectOptions(within(phone2).getByLabelText('Type'), 'business');
    // The home had a primary phone: the new one is not.
    expect((within(phone2).getByLabelText('Primary') as HTMLInputElement).checked).toBe(false);
    // The resident asked not to be called on it.
    await user.click(within(phone2).getByLabelText('Do not call'));
    expect(within(phone2).getByText(DO_NOT_CALL_HINT)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    const values = onSubmit.mock.calls[0]![0];
    expect(values.residents).toEqual(SAVED_HOME.residents);
    expect(values.phones).toEqual([
      { id: 'p1', phone_number: '+15615550100', type: 'cell', primary: true, do_not_call: false },
      { id: '', phone_number: '+15615550199', type: 'business', primary: false, do_not_call: true },
    ]);
  });

  test('only one phone is primary: ticking one unticks the others', async () => {
    const user = userEvent.setup();
    const onSubmit = form('update', {
      address: '12 Palm Way',
      city: 'Jupiter',
      zip: '33458',
      phones: [
        { id: 'p1', phone_number: '+15615550100', type: 'cell', primary: true, do_not_call: false },
        { id: 'p2', phone_number: '+15615550101', type: 'home', primary: false, do_not_call: true },
      ],
    });
    const primary = (n: number) =>
      within(screen.getByRole('group', { name: `Phone ${n}` })).getByLabelText('Primary') as HTMLInputElement;
    await user.click(primary(2));
    expect(primary(2).checked).toBe(true);
    expect(primary(1).checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]![0].phones.map((p) => p.primary)).toEqual([false, true]);
  });

  test('a row with a bad value shows the message under that row', async () => {
    const user = userEvent.setup();
    const onSubmit = form('update', { address: 'a', city: 'b', zip: 'c' });
    await user.click(screen.getByRole('button', { name: 'Add resident' }));
    await user.type(
      within(screen.getByRole('group', { name: 'Resident 2' })).getByLabelText('Last name'),
      'x'.repeat(31),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await within(screen.getByRole('group', { name: 'Resident 2' })).findByText(
        'Last name must not exceed 30 characters',
      ),
    ).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test('the state choice: label, placeholder, Florida by default, Alaska as Ak', () => {
    form('add');
    const state = screen.getByLabelText('State:') as HTMLSelectElement;
    expect(state.value).toBe('FL');
    expect(state.options[0]!.textContent).toBe('Select state');
    expect([...state.options].some((o) => o.value === 'Ak' && o.textContent === 'AK')).toBe(true);
    expect(state.options).toHaveLength(58);
  });

  test('an invalid form shows the messages under the fields and is not submitted', async () => {
    const user = userEvent.setup();
    const onSubmit = form('add');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Address must be longer than a character')).toBeTruthy();
    expect(screen.getByText('City must be at least 1 character long')).toBeTruthy();
    expect(screen.getByText('Zip must be at least 1 character long')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test('a valid form submits its values with the phone in E.164', async () => {
    const user = userEvent.setup();
    const onSubmit = form('add');
    await user.type(screen.getByLabelText('Address'), '1 Ocean Dr');
    await user.type(screen.getByLabelText('City'), 'Tequesta');
    await user.type(screen.getByLabelText('Zip'), '33469');
    await user.type(screen.getByLabelText('Phone number'), '5615550100');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(onSubmit.mock.calls[0]).toMatchObject([
      {
        address: '1 Ocean Dr',
        city: 'Tequesta',
        state: 'FL',
        zip: '33469',
        phones: [{ phone_number: '+15615550100', type: 'cell', primary: true }],
      },
      undefined,
    ]);
  });

  test('the add form has no house-check section; the update form does', () => {
    form('add');
    expect(screen.queryByRole('group', { name: 'House check' })).toBeNull();
    cleanup();
    form('update');
    expect(screen.getByRole('group', { name: 'House check' })).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'House check' })).toBeTruthy();
  });

  test('house check: end picker waits for a start; the pickers refuse early days; the selected day clears', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2026, 10, 22, 12));
    const user = userEvent.setup();
    const onSubmit = form('update', {}, new Date(2026, 10, 22, 12));
    const startButton = () => screen.getByRole('button', { name: /^Start date/ }) as HTMLButtonElement;
    const endButton = () => screen.getByRole('button', { name: /^End date/ }) as HTMLButtonElement;
    expect(endButton().disabled).toBe(true);

    await user.click(startButton());
    const day = (n: number) =>
      within(screen.getByRole('grid')).getByRole('button', {
        name: new RegExp(`^${n} November 2026`),
      }) as HTMLButtonElement;
    expect(day(21).disabled).toBe(true);
    expect(day(22).disabled).toBe(true);
    expect(day(23).disabled).toBe(false);
    await user.click(day(25));
    // Picking closes the picker.
    expect(screen.queryByRole('grid')).toBeNull();
    expect(startButton().textContent).toContain('Nov 25, 2026');
    expect(endButton().disabled).toBe(false);

    await user.click(endButton());
    expect(day(25).disabled).toBe(true);
    expect(day(26).disabled).toBe(false);
    await user.click(day(28));
    expect(endButton().textContent).toContain('Nov 28, 2026');

    // With both dates and the switch on, the form goes through.
    await user.click(screen.getByRole('switch', { name: 'House check' }));
    await user.type(screen.getByLabelText('Address'), '1 Ocean Dr');
    await user.type(screen.getByLabelText('City'), 'Tequesta');
    await user.type(screen.getByLabelText('Zip'), '33469');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      house_check: true,
      house_check_start_date: new Date(2026, 10, 25),
      house_check_end_date: new Date(2026, 10, 28),
    });

    // Clicking the selected start day clears it, and the end date it allowed goes with it.
    await user.click(startButton());
    await user.click(day(25));
    expect(startButton().textContent).toContain('Pick a date');
    expect(endButton().disabled).toBe(true);
    expect(endButton().textContent).toContain('Pick a date');
  });

  test('house check on without dates: Field required under both pickers', async () => {
    const user = userEvent.setup();
    const onSubmit = form('update', { address: 'a', city: 'b', zip: 'c', house_check: true });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('Field required')).toHaveLength(2);
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
