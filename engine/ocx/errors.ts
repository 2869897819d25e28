/**
 * The import error ("A truncated, malformed or non-OCX file is refused with a message
 * naming the problem and its line"). Re-exported from engine/ocx/index.ts.
 */

/** A refused file: names the problem and, where known, its line and column (1-based). */
export class OcxImportError extends Error {
  constructor(
    message: string,
    public readonly line?: number,
    public readonly column?: number,
  ) {
    super(
      line !== undefined ? `${message} (line ${line}${column !== undefined ? `, column ${column}` : ''})` : message,
    );
    this.name = 'OcxImportError';
  }
}
