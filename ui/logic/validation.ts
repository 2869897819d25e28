/**
 * Form validation of application.md §5 (Login, Register, Change password). Pure functions: values in,
 * trimmed values and per-field messages out. The messages are the spec's exact texts.
 */

/** The spec's validation texts (application.md §5). */
export const VALIDATION_MESSAGES = {
  required: 'Field is required',
  invalidEmail: 'Input a valid email',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must have at least 8 letters.',
  passwordsDoNotMatch: 'Passwords do not match',
} as const;

/** Password minimum length (application.md §9). */
export const PASSWORD_MIN_LENGTH = 8;

/** Result of validating a form: the trimmed values, the first message per invalid field, validity. */
export interface ValidationResult<K extends string> {
  values: Record<K, string>;
  errors: Partial<Record<K, string>>;
  valid: boolean;
}

/** True for a plausible e-mail address: one '@', a non-empty local part and a dotted domain, no spaces. */
export function isValidEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(value);
}

function trimAll<K extends string>(input: Record<K, string>): Record<K, string> {
  const out = {} as Record<K, string>;
  for (const k of Object.keys(input) as K[]) out[k] = (input[k] ?? '').trim();
  return out;
}

function emailError(v: string): string | undefined {
  if (!v) return VALIDATION_MESSAGES.required;
  if (!isValidEmail(v)) return VALIDATION_MESSAGES.invalidEmail;
  return undefined;
}

function newPasswordError(v: string): string | undefined {
  if (!v) return VALIDATION_MESSAGES.passwordRequired;
  if (v.length < PASSWORD_MIN_LENGTH) return VALIDATION_MESSAGES.passwordTooShort;
  return undefined;
}

function finish<K extends string>(values: Record<K, string>, errors: Partial<Record<K, string | undefined>>) {
  const clean: Partial<Record<K, string>> = {};
  for (const k of Object.keys(errors) as K[]) if (errors[k]) clean[k] = errors[k];
  return { values, errors: clean, valid: Object.keys(clean).length === 0 };
}

/** Login form (application.md §5 "Login"): e-mail required and valid, password required; inputs trimmed. */
export function validateLogin(input: { email: string; password: string }): ValidationResult<'email' | 'password'> {
  const values = trimAll(input);
  return finish(values, {
    email: emailError(values.email),
    password: values.password ? undefined : VALIDATION_MESSAGES.passwordRequired,
  });
}

/**
 * Register form (application.md §5 "Register"): e-mail required and valid, full name required, password
 * required and at least 8 characters, confirmation equal to the password.
 */
export function validateRegister(input: {
  email: string;
  fullName: string;
  password: string;
  confirmPassword: string;
}): ValidationResult<'email' | 'fullName' | 'password' | 'confirmPassword'> {
  const values = trimAll(input);
  return finish(values, {
    email: emailError(values.email),
    fullName: values.fullName ? undefined : VALIDATION_MESSAGES.required,
    password: newPasswordError(values.password),
    confirmPassword: values.confirmPassword !== values.password ? VALIDATION_MESSAGES.passwordsDoNotMatch : undefined,
  });
}

/**
 * Change-password form (application.md §5 "Change password"): current password required, new password
 * required and at least 8 characters, confirmation equal to the new password.
 */
export function validateChangePassword(input: {
  currentPassword: string;
  newPassword: string;
  confirmNewPassword: string;
}): ValidationResult<'currentPassword' | 'newPassword' | 'confirmNewPassword'> {
  const values = trimAll(input);
  return finish(values, {
    currentPassword: values.currentPassword ? undefined : VALIDATION_MESSAGES.passwordRequired,
    newPassword: newPasswordError(values.newPassword),
    confirmNewPassword:
      values.confirmNewPassword !== values.newPassword ? VALIDATION_MESSAGES.passwordsDoNotMatch : undefined,
  });
}
