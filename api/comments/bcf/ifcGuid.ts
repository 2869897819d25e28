/**
 * IFC's 22-character GUID form (BCF `IfcGuid`, buildingSMART "IfcGloballyUniqueId"): the 128 bits of a UUID
 * in base 64 with the alphabet 0-9 A-Z a-z _ $ — the first byte as 2 characters, then five 3-byte groups as
 * 4 characters each. OCX GUIDs are UUIDs, so a component keeps its identity through BCF.
 */
const CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$';

/** True for a 22-character IFC GUID. */
export const isIfcGuid = (s: string): boolean => /^[0-3][0-9A-Za-z_$]{21}$/.test(s);

/** The IFC GUID of a UUID (any case, braces and hyphens ignored), or null when `uuid` is no UUID. */
export function compressGuid(uuid: string): string | null {
  const hex = uuid.replace(/[{}-]/g, '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return null;
  const bytes = Array.from({ length: 16 }, (_, i) => Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  const enc = (v: number, n: number) => {
    let s = '';
    for (let i = n - 1; i >= 0; i--) s += CHARS[Math.floor(v / 64 ** i) % 64];
    return s;
  };
  let out = enc(bytes[0], 2);
  for (let i = 1; i < 16; i += 3) out += enc((bytes[i] << 16) + (bytes[i + 1] << 8) + bytes[i + 2], 4);
  return out;
}

/** The UUID (upper case, hyphenated, as Keelson normalises OCX GUIDs) of an IFC GUID, or null. */
export function expandGuid(ifc: string): string | null {
  if (!isIfcGuid(ifc)) return null;
  const dec = (s: string) => [...s].reduce((v, c) => v * 64 + CHARS.indexOf(c), 0);
  const bytes = [dec(ifc.slice(0, 2))];
  for (let i = 2; i < 22; i += 4) {
    const v = dec(ifc.slice(i, i + 4));
    bytes.push((v >> 16) & 255, (v >> 8) & 255, v & 255);
  }
  const hex = bytes
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
