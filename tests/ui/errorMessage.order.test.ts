import { describe, expect, it } from 'vitest';
import { DEFAULT_ERROR_MESSAGE, chooseErrorMessage } from '../../ui/logic/errorMessage';

describe('central error message order (application.md §8)', () => {
  it('prefers the call message, then data.message, data.reason, status text, default', () => {
    expect(chooseErrorMessage('own', { message: 'm', reason: 'r' }, 500)).toBe('own');
    expect(chooseErrorMessage(undefined, { message: 'm', reason: 'r' }, 500)).toBe('m');
    expect(chooseErrorMessage('', { message: ' ', reason: 'r' }, 500)).toBe('r');
    expect(chooseErrorMessage(undefined, 'plain text', 404)).toBe('Not found');
    expect(chooseErrorMessage(undefined, null, 0)).toBe(DEFAULT_ERROR_MESSAGE);
    expect(chooseErrorMessage(undefined, {}, 599)).toBe(DEFAULT_ERROR_MESSAGE);
  });
});
