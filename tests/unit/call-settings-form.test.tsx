// @vitest-environment jsdom
/** The directors' call settings form: the defaults, the limits, and numbers sent as numbers. */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { CallSettingsRecord } from '../../src/api/records.ts';
import type { CallSettingsValues } from '../../src/domain/schemas.ts';
import { CallSettingsForm } from '../../src/features/concerns/CallSettingsForm.tsx';

afterEach(cleanup);

const value = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).value;

function form(saved: CallSettingsRecord | null = null, blockedReason: string | null = null) {
  const onSubmit = vi.fn(async (_values: CallSettingsValues) => undefined);
  render(<CallSettingsForm saved={saved} onSubmit={onSubmit} blockedReason={blockedReason} />);
  return onSubmit;
}

describe('call settings form', () => {
  test('a community without saved settings starts from the defaults the server uses', () => {
    form();
    expect(value('Retries of a busy or unanswered number')).toBe('2');
    expect(value('Minutes between tries')).toBe('5');
    expect(value('From')).toBe('21:00');
    expect(value('To')).toBe('08:00');
    expect(value('Time zone')).toBe('America/New_York');
    expect((screen.getByRole('checkbox') as HTMLInputElement).checked).toBe(false);
  });

  test('saved settings are shown; a change is sent with numbers as numbers', async () => {
    const user = userEvent.setup();
    const onSubmit = form({
      id: 'settings0000001',
      created: '',
      updated: '',
      community: 'c1',
      retries: 1,
      retry_minutes: 10,
      text_fallback: true,
      quiet_start: '22:00',
      quiet_end: '07:30',
      time_zone: 'America/Chicago',
    });
    expect(value('Minutes between tries')).toBe('10');
    await user.selectOptions(screen.getByLabelText('Retries of a busy or unanswered number'), '3');
    await user.clear(screen.getByLabelText('Minutes between tries'));
    await user.type(screen.getByLabelText('Minutes between tries'), '15');
    await user.selectOptions(screen.getByLabelText('Time zone'), 'UTC');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      retries: 3,
      retry_minutes: 15,
      text_fallback: true,
      quiet_start: '22:00',
      quiet_end: '07:30',
      time_zone: 'UTC',
    });
  });

  test.each([
    ['0', 'Minutes between tries must be from 1 to 120'],
    ['121', 'Minutes between tries must be from 1 to 120'],
    ['2.5', 'Minutes between tries must be a whole number'],
    ['', 'Minutes between tries must be a number'],
  ])('minutes between tries %j is refused: %s', async (minutes, message) => {
    const user = userEvent.setup();
    const onSubmit = form();
    await user.clear(screen.getByLabelText('Minutes between tries'));
    if (minutes) await user.type(screen.getByLabelText('Minutes between tries'), minutes);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test("quiet hours are typed and shown 24-hour, not in the browser's time input (12-hour 'AM/PM' in a US locale)", async () => {
    const user = userEvent.setup();
    const onSubmit = form();
    for (const label of ['From', 'To'])
      expect((screen.getByLabelText(label) as HTMLInputElement).type, label).toBe('text');
    expect(screen.getByText('24-hour times, HH:MM (21:00).')).toBeTruthy();
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '9:00 PM');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Quiet hours start must be a time from 00:00 to 23:59')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '22:30');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({ quiet_start: '22:30', quiet_end: '08:00' });
  });

  test('offline the form says why and does not send', () => {
    form(null, 'You are offline — saving call settings needs a connection.');
    expect(screen.getByText('You are offline — saving call settings needs a connection.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
