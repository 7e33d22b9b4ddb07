import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { errorTexts, fieldErrorsOf, fieldErrorText } from './error-text';

describe('error texts', () => {
  it('prefers the message key of a field error over its English text', () => {
    expect(fieldErrorText({ field: 'password', message: 'Invalid email or password', key: 'errors.invalidCredentials' })).toBe(
      'errors.invalidCredentials',
    );
    expect(fieldErrorText({ message: 'is too long' })).toBe('is too long');
  });

  it('lists the field errors of an answer, or the error itself, or the generic text', () => {
    const http = new ApiError('http', 404, 'Device not found', [{ message: 'Device not found', key: 'errors.deviceNotFound' }]);
    expect(errorTexts(http)).toEqual(['errors.deviceNotFound']);
    expect(errorTexts(new ApiError('server', 500, 'errors.server'))).toEqual(['errors.server']);
    expect(errorTexts(new Error('boom'))).toEqual(['errors.generic']);
  });

  it('maps field errors onto the form fields it knows', () => {
    const err = new ApiError('http', 409, 'mac: taken', [
      { field: 'mac', message: 'taken', key: 'errors.macTaken' },
      { field: 'other', message: 'x' },
    ]);
    expect(fieldErrorsOf(err, { mac: '', name: '' })).toEqual({ mac: 'errors.macTaken' });
    expect(fieldErrorsOf(new ApiError('server', 500, 'errors.server'), { mac: '' })).toEqual({});
  });
});
