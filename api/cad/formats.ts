/**
 * Which CAD files Keelson converts, by file extension (application.md §5 "Upload and project files";
 * issue "CAD components" §2 "Conversion"): the formats of CAD_FORMATS; any other (.sat, .jt, .dwg, ...)
 * is refused with a message naming the supported ones.
 */
import path from 'node:path';
import { CAD_FORMATS, CadConversionError, type CadFormat } from './types';

/** Formats read with OpenCascade (occt-import-js). */
export const OCCT_FORMATS: readonly CadFormat[] = ['.stp', '.step', '.igs', '.iges', '.brep', '.brp'];

/** The supported formats as shown to a user: '.stp, .step, ... .obj'. */
export const SUPPORTED_CAD_FORMATS_TEXT = CAD_FORMATS.join(', ');

/**
 * The format of `fileName` by its lower-case extension.
 * @throws CadConversionError naming the supported formats when the extension is not one of them.
 */
export function cadFormatOf(fileName: string): CadFormat {
  const ext = path.extname(fileName).toLowerCase();
  if ((CAD_FORMATS as readonly string[]).includes(ext)) return ext as CadFormat;
  throw new CadConversionError(
    path.basename(fileName),
    `${ext ? `'${ext}' files are` : 'files without an extension are'} not supported; supported CAD formats: ${SUPPORTED_CAD_FORMATS_TEXT}`,
  );
}
