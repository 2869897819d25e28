/**
 * The sign-in forms' validation (application.md §5) runs the contract's schemas, so the forms refuse
 * exactly what the server refuses and show the spec's texts.
 */
import { describe, expect, it } from 'vitest';
import { validateChangePassword, validateLogin, validateRegister } from '../../ui/logic/validation';

/** The spec's texts (application.md §5). */
const M = {
  required: 'Field is required',
  invalidEmail: 'Input a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must have at least 8 letters.',
  passwordsDoNotMatch: 'Passwords do not match',
};

describe('login validation (application.md §5)', () => {
  it('requires e-mail and password', () => {
    const r = validateLogin({ email: '', password: '' });
    expect(r.valid).toBe(false);
    expect(r.errors).toEqual({ email: M.required, password: M.passwordRequired });
  });
  it('rejects an invalid e-mail and trims inputs', () => {
    expect(validateLogin({ email: 'not-an-email', password: 'x' }).errors.email).toBe(M.invalidEmail);
    const r = validateLogin({ email: '  a@b.io ', password: ' secret ' });
    expect(r).toEqual({ values: { email: 'a@b.io', password: 'secret' }, errors: {}, valid: true });
  });
  it('treats whitespace-only as empty', () => {
    expect(validateLogin({ email: '   ', password: '  ' }).errors).toEqual({
      email: M.required,
      password: M.passwordRequired,
    });
  });
  it.each([
    ['a@b.co', true],
    ['first.last@sub.example.org', true],
    ['a@b', false],
    ['a b@c.de', false],
    ['@c.de', false],
    ['a@@c.de', false],
  ])('e-mail %s valid: %s', (email, valid) => {
    expect(validateLogin({ email, password: 'x' }).valid).toBe(valid);
  });
  it("holds the contract's bounds (e-mail 254, password 256 characters)", () => {
    const long = `${'a'.repeat(250)}@b.co`;
    expect(validateLogin({ email: long, password: 'x' }).errors.email).toBe('At most 254 characters');
    expect(validateLogin({ email: 'a@b.co', password: 'p'.repeat(257) }).errors.password).toBe(
      'At most 256 characters',
    );
  });
});

describe('register validation', () => {
  const ok = { email: 'e@x.com', fullName: 'Ed', password: 'abcdefgh', confirmPassword: 'abcdefgh' };
  it('accepts a complete form', () => {
    expect(validateRegister(ok)).toMatchObject({ valid: true, errors: {} });
  });
  it('requires full name, 8-letter password and a matching confirmation', () => {
    const r = validateRegister({ ...ok, fullName: ' ', password: 'abcdefg', confirmPassword: 'abcdefgx' });
    expect(r.errors).toEqual({
      fullName: M.required,
      password: M.passwordTooShort,
      confirmPassword: M.passwordsDoNotMatch,
    });
    expect(validateRegister({ ...ok, password: '' }).errors.password).toBe(M.passwordRequired);
    expect(validateRegister({ ...ok, email: 'x' }).errors).toEqual({ email: M.invalidEmail });
  });
});

describe('change password validation', () => {
  it('checks every field', () => {
    const r = validateChangePassword(
      { currentPassword: '', newPassword: 'short', confirmNewPassword: 'other' },
      'a@b.co',
    );
    expect(r.errors).toEqual({
      currentPassword: M.passwordRequired,
      newPassword: M.passwordTooShort,
      confirmNewPassword: M.passwordsDoNotMatch,
    });
    expect(
      validateChangePassword(
        { currentPassword: 'a', newPassword: '12345678', confirmNewPassword: '12345678' },
        'a@b.co',
      ).valid,
    ).toBe(true);
  });
});
