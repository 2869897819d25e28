import { describe, expect, it } from 'vitest';
import {
  VALIDATION_MESSAGES as M,
  isValidEmail,
  validateChangePassword,
  validateLogin,
  validateRegister,
} from '../../ui/logic/validation';

describe('login validation (application.md §5)', () => {
  it('requires e-mail and password', () => {
    const r = validateLogin({ email: '', password: '' });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual({ email: 'Field is required', password: 'Password is required' });
  });
  it('rejects an invalid e-mail and trims inputs', () => {
    expect(validateLogin({ email: 'not-an-email', password: 'x' }).errors.email).toBe('Input a valid email');
    const r = validateLogin({ email: '  a@b.io ', password: ' secret ' });
    expect(r.valid).toBe(true);
    expect(r.values).toEqual({ email: 'a@b.io', password: 'secret' });
  });
  it('treats whitespace-only as empty', () => {
    expect(validateLogin({ email: '   ', password: '  ' }).errors.password).toBe(M.passwordRequired);
  });
});

describe('register validation', () => {
  const ok = { email: 'e@x.com', fullName: 'Ed', password: 'abcdefgh', confirmPassword: 'abcdefgh' };
  it('accepts a complete form', () => {
    expect(validateRegister(ok)).toMatchObject({ valid: true, errors: {} });
  });
  it('requires full name, 8-letter password and a matching confirmation', () => {
    const r = validateRegister({ ...ok, fullName: ' ', password: 'abcdefg', confirmPassword: 'abcdefgx' });
    expect(r.errors.fullName).toBe('Field is required');
    expect(r.errors.password).toBe('Password must have at least 8 letters.');
    expect(r.errors.confirmPassword).toBe('Passwords do not match');
    expect(validateRegister({ ...ok, password: '' }).errors.password).toBe('Password is required');
  });
});

describe('change password validation', () => {
  it('checks every field', () => {
    const r = validateChangePassword({ currentPassword: '', newPassword: 'short', confirmNewPassword: 'other' });
    expect(r.errors).toEqual({
      currentPassword: M.passwordRequired,
      newPassword: M.passwordTooShort,
      confirmNewPassword: M.passwordsDoNotMatch,
    });
    expect(
      validateChangePassword({ currentPassword: 'a', newPassword: '12345678', confirmNewPassword: '12345678' }).valid,
    ).toBe(true);
  });
});

describe('isValidEmail', () => {
  it.each([
    ['a@b.co', true],
    ['first.last@sub.example.org', true],
    ['a@b', false],
    ['a b@c.de', false],
    ['@c.de', false],
    ['a@@c.de', false],
  ])('%s → %s', (v, want) => expect(isValidEmail(v)).toBe(want));
});
