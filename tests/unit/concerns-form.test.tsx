// @vitest-environment jsdom
/** The concern form against the shared schema (one set of limits), the plain-text edit and the script preview. */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConcernRecord } from '../../src/api/records.ts';
import type { ConcernValues } from '../../src/domain/schemas.ts';
import { ConcernForm } from '../../src/features/concerns/ConcernForm.tsx';

afterEach(cleanup);

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement | HTMLTextAreaElement;
const alerts = () => screen.queryAllByRole('alert').map((a) => a.textContent);
// Typing hundreds of characters key by key is slow; paste them.
async function fill(label: string, text: string) {
  await userEvent.clear(field(label));
  field(label).focus();
  await userEvent.paste(text);
}

describe('concern form', () => {
  it('empty fields give "Field must be longer than a character"', async () => {
    const onSubmit = vi.fn<(values: ConcernValues) => Promise<void>>();
    render(<ConcernForm communityName="Palm Grove Estates" onSubmit={onSubmit} blockedReason={null} />);
    await fill('Name', '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Add Concern' }));
    // The schema checks the values asynchronously: wait for its messages.
    await waitFor(() => expect(alerts()).toEqual(Array(3).fill('Field must be longer than a character')));
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('one over each limit is refused with its message', async () => {
    const onSubmit = vi.fn<(values: ConcernValues) => Promise<void>>();
    render(<ConcernForm communityName="Palm Grove Estates" onSubmit={onSubmit} blockedReason={null} />);
    await fill('Name', 'n'.repeat(101));
    await fill('Hint', 'h'.repeat(201));
    await fill('What the call says', 's'.repeat(351));
    await userEvent.click(screen.getByRole('button', { name: 'Add Concern' }));
    await waitFor(() =>
      expect(alerts()).toEqual([
        'Field must not exceed 100 characters',
        'Field must not exceed 200 characters',
        'Field must not exceed 350 characters',
      ]),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('exactly at each limit is sent', async () => {
    const onSubmit = vi.fn<(values: ConcernValues) => Promise<void>>().mockResolvedValue();
    render(<ConcernForm communityName="Palm Grove Estates" onSubmit={onSubmit} blockedReason={null} />);
    await fill('Name', 'n'.repeat(100));
    await fill('Hint', 'h'.repeat(200));
    await fill('What the call says', 's'.repeat(350));
    expect(screen.getByText('350/350')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add Concern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(alerts()).toEqual([]);
    expect(onSubmit.mock.calls[0]![0]).toEqual({ name: 'n'.repeat(100), hint: 'h'.repeat(200), say: 's'.repeat(350) });
  });

  it('editing shows the text without paragraph tags and previews the whole script', async () => {
    const stamp = '2026-01-10 08:00:00.000Z';
    const concern: ConcernRecord = {
      id: 'concern00000001',
      created: stamp,
      updated: stamp,
      name: 'Open garage door',
      hint: 'Garage open after dark',
      say: '<p>Your garage door is open.</p>',
      added_by: 'director0000001',
      community: 'community000001',
    };
    const onSubmit = vi.fn<(values: ConcernValues) => Promise<void>>().mockResolvedValue();
    render(
      <ConcernForm concern={concern} communityName="Palm Grove Estates" onSubmit={onSubmit} blockedReason={null} />,
    );
    expect(field('What the call says').value).toBe('Your garage door is open.');
    expect(
      screen.getByText(
        'Hello. This is Palm Grove Estates security team. Your garage door is open. Thank you. Good bye.',
      ),
    ).toBeTruthy();
    await fill('What the call says', 'Please close your garage door.');
    expect(
      screen.getByText(
        'Hello. This is Palm Grove Estates security team. Please close your garage door. Thank you. Good bye.',
      ),
    ).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      name: 'Open garage door',
      hint: 'Garage open after dark',
      say: 'Please close your garage door.',
    });
  });
});
