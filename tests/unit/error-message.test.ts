import { ClientResponseError } from 'pocketbase';
import { describe, expect, test } from 'vitest';
import Dexie from 'dexie';
import {
  errorMessage,
  fieldErrors,
  GENERIC_ERROR,
  isOutOfStorage,
  OUT_OF_STORAGE,
} from '../../src/api/errorMessage.ts';

const pbError = (status: number, response: Record<string, unknown>) =>
  new ClientResponseError({ url: 'http://x/api', status, response });

describe('the failure-message builder (docs/product.md#messages)', () => {
  test('a response without a code or status gives the generic message', () => {
    expect(errorMessage(new Error('boom'))).toBe(GENERIC_ERROR);
    expect(errorMessage(pbError(0, {}))).toBe(GENERIC_ERROR);
    expect(errorMessage(null)).toBe(GENERIC_ERROR);
  });
  test('each field of the response data becomes "field: message."', () => {
    const error = pbError(400, {
      status: 400,
      message: 'Failed to create record.',
      data: {
        address: { code: 'validation_required', message: 'Cannot be blank.' },
        zip: { code: 'x', message: 'Too long.' },
      },
    });
    expect(errorMessage(error)).toBe('address: Cannot be blank. zip: Too long.');
    expect(fieldErrors(error)).toEqual({ address: 'Cannot be blank.', zip: 'Too long.' });
  });
  test('without field errors the server message is used (the original API said code, PocketBase says status)', () => {
    expect(
      errorMessage(pbError(403, { status: 403, message: 'Only superusers can perform this action.', data: {} })),
    ).toBe('Only superusers can perform this action.');
    expect(errorMessage({ response: { code: 404, message: 'Not here' } })).toBe('Not here');
  });
  test('a failed batch reports the field errors of the request that failed', () => {
    const error = pbError(400, {
      status: 400,
      message: 'Batch transaction failed.',
      data: {
        requests: {
          1: {
            code: 'batch_request_failed',
            message: 'Batch request failed.',
            response: {
              status: 400,
              message: 'Failed.',
              data: { type: { code: 'validation_invalid_value', message: 'Invalid value nonsense.' } },
            },
          },
        },
      },
    });
    expect(fieldErrors(error)).toEqual({ type: 'Invalid value nonsense.' });
    expect(errorMessage(error)).toBe('type: Invalid value nonsense.');
  });

  test('a write the device had no room for says so and what to do, however Dexie wraps it', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    const aborted = new Dexie.AbortError('Transaction aborted', quota);
    const bulk = new Dexie.BulkError('1 of 2 operations failed', { 1: new Dexie.AbortError('aborted', quota) });
    for (const error of [quota, new Dexie.QuotaExceededError('full'), aborted, bulk]) {
      expect(isOutOfStorage(error)).toBe(true);
      expect(errorMessage(error)).toBe(OUT_OF_STORAGE);
    }
    expect(OUT_OF_STORAGE).toMatch(/^This phone is out of storage\. Free up some space .+, then try again\.$/);
    // Other local failures keep the generic message.
    const other = new Dexie.AbortError('Transaction aborted', new DOMException('x', 'ConstraintError'));
    expect(isOutOfStorage(other)).toBe(false);
    expect(errorMessage(other)).toBe(GENERIC_ERROR);
    expect(errorMessage(new Dexie.BulkError('failed', [new Error('x')]))).toBe(GENERIC_ERROR);
  });
});
