// @vitest-environment jsdom
/** The one submit button: a spinner and no second press while busy; the form's own reasons disable it too. */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import { SubmitButton } from '../../src/ui/SubmitButton.tsx';

afterEach(cleanup);

const button = () => screen.getByRole('button') as HTMLButtonElement;

it('idle: pressable, no spinner', () => {
  render(<SubmitButton busy={false}>Save</SubmitButton>);
  expect(button().type).toBe('submit');
  expect(button().disabled).toBe(false);
  expect(button().textContent).toBe('Save');
  expect(screen.queryByRole('status')).toBeNull();
});

it('busy: disabled, with a spinner named by busyLabel', () => {
  render(
    <SubmitButton busy busyLabel="Creating report" variant="fill">
      Create report
    </SubmitButton>,
  );
  expect(button().disabled).toBe(true);
  expect(screen.getByRole('status', { name: 'Creating report' })).toBeTruthy();
  expect(button().className).toContain('flex-1');
});

it('disabled by the form (offline, nothing chosen) without a spinner', () => {
  render(
    <SubmitButton busy={false} disabled variant="full-grey">
      Submit
    </SubmitButton>,
  );
  expect(button().disabled).toBe(true);
  expect(screen.queryByRole('status')).toBeNull();
  expect(button().className).toContain('disabled:bg-gray-400');
});
