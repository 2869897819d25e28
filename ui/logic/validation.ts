/**
 * Form validation of application.md §5 (Login, Register, Change password) with the contract's own
 * schemas (api/contract/auth.ts: LoginBodySchema, RegisterBodySchema, ChangePasswordBodySchema), which
 * carry the spec's texts: the forms check exactly what the server checks. Inputs are trimmed first
 * (§5 "Inputs are trimmed"); each field shows its first message.
 */
import * as v from 'valibot';
import { ChangePasswordBodySchema, LoginBodySchema, RegisterBodySchema } from '../../api/contract';

/** Result of validating a form: the trimmed values, the first message per invalid field, validity. */
export interface ValidationResult<K extends string> {
  values: Record<K, string>;
  errors: Partial<Record<K, string>>;
  valid: boolean;
}

/**
 * Trims every field of `input`, parses `{ ...context, ...values }` with `schema` and keeps the first
 * issue message per form field. `context` holds body fields the form does not show (e.g. the signed-in
 * user's e-mail); their issues make the form invalid without a field message.
 */
export function validateForm<K extends string>(
  schema: v.GenericSchema,
  input: Record<K, string>,
  context: Record<string, unknown> = {},
): ValidationResult<K> {
  const values = {} as Record<K, string>;
  for (const k of Object.keys(input) as K[]) values[k] = (input[k] ?? '').trim();
  const r = v.safeParse(schema, { ...context, ...values });
  const errors: Partial<Record<K, string>> = {};
  for (const issue of r.issues ?? []) {
    const key = issue.path?.[0]?.key;
    if (typeof key === 'string' && key in values && errors[key as K] === undefined) errors[key as K] = issue.message;
  }
  return { values, errors, valid: r.success };
}

/** Login form (§5 "Login"): e-mail required and valid, password required. */
export function validateLogin(input: { email: string; password: string }): ValidationResult<'email' | 'password'> {
  return validateForm(LoginBodySchema, input);
}

/**
 * Register form (§5 "Register"): e-mail required and valid, full name required, password required and at
 * least 8 characters, confirmation equal to the password.
 */
export function validateRegister(input: {
  email: string;
  fullName: string;
  password: string;
  confirmPassword: string;
}): ValidationResult<'email' | 'fullName' | 'password' | 'confirmPassword'> {
  return validateForm(RegisterBodySchema, input);
}

/**
 * Change-password form (§5 "Change password") of the signed-in user `email`: current password required,
 * new password required and at least 8 characters, confirmation equal to the new password.
 */
export function validateChangePassword(
  input: { currentPassword: string; newPassword: string; confirmNewPassword: string },
  email: string,
): ValidationResult<'currentPassword' | 'newPassword' | 'confirmNewPassword'> {
  return validateForm(ChangePasswordBodySchema, input, { email });
}
