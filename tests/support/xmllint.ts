/**
 * Schema validation of a generated OCX file with xmllint (Debian package libxml2-utils, which `.ci/run`
 * installs). xmllint is required, not optional: without it the validating tests fail and say how to
 * install it, rather than pass without checking anything.
 */
import { spawnSync } from 'node:child_process';

/** xmllint's verdict on a file: the last lines of its report and its exit status. */
export interface XmllintResult {
  /** The last `lines` lines of xmllint's standard error (it prints '<file> validates' on success). */
  tail: string;
  status: number | null;
}

/**
 * Validates `file` against the XSD `schema` with xmllint.
 * @throws Error naming the package to install when xmllint is not on PATH.
 */
export function xmllintValidate(file: string, schema: string, lines = 1): XmllintResult {
  const out = spawnSync('xmllint', ['--noout', '--schema', schema, file], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (out.error)
    throw new Error(`xmllint is needed to validate ${file}: apt-get install -y libxml2-utils (${out.error.message})`);
  return { tail: out.stderr.trim().split('\n').slice(-lines).join('\n'), status: out.status };
}
