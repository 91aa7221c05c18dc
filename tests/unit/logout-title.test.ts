// @vitest-environment jsdom
/** The log-out question counts the unsent changes in words: '1 change is not sent yet', 'N changes are not sent yet'. */
import { expect, test } from 'vitest';
import { unsentTitle } from '../../src/app/LogOut.tsx';

test('one change in the singular, more in the plural', () => {
  expect(unsentTitle(1)).toBe('1 change is not sent yet');
  expect(unsentTitle(2)).toBe('2 changes are not sent yet');
  expect(unsentTitle(12)).toBe('12 changes are not sent yet');
});
