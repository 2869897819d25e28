/**
 * The XML reader and writer of BCF-XML (fast-xml-parser; never string-built XML). Attributes carry the '@_'
 * prefix; text stays text (no number parsing: GUIDs and labels must survive as written). Elements that may
 * repeat are listed per path so a single one still reads as a list, in BCF 2.1 and 3.0 alike.
 */
import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** Paths (dot-joined element names) whose element may occur more than once. */
const LISTS = new Set([
  'Markup.Topic.Labels',
  'Markup.Topic.Labels.Label',
  'Markup.Topic.Comments.Comment',
  'Markup.Topic.Viewpoints.ViewPoint',
  'Markup.Topic.ReferenceLinks.ReferenceLink',
  'Markup.Topic.AssignedTo',
  'Markup.Comment',
  'Markup.Viewpoints',
  'VisualizationInfo.Components.Selection.Component',
  'VisualizationInfo.Components.Visibility.Exceptions.Component',
  'VisualizationInfo.ClippingPlanes.ClippingPlane',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  removeNSPrefix: true,
  trimValues: true,
  isArray: (_name, jpath) => LISTS.has(String(jpath)),
});

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: true,
  // DefaultVisibility="true" must stay a valued attribute (XML has no bare attributes).
  suppressBooleanAttributes: false,
});

/** A parsed element: attributes as '@_Name', children by name, text as '#text' or a plain string. */
export type XmlNode = Record<string, unknown>;

/** Parses an XML document. @throws Error on malformed XML. */
export function parseXml(text: string): XmlNode {
  return parser.parse(text, true) as XmlNode;
}

/** Writes an XML document (UTF-8 declaration first) from an object tree. */
export function buildXml(root: XmlNode): string {
  return builder.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, ...root }) as string;
}

/** The text of an element (string, or '#text' of an element with attributes), or undefined. */
export function textOf(node: unknown): string | undefined {
  if (typeof node === 'string') return node;
  if (node && typeof node === 'object' && '#text' in node) return String((node as XmlNode)['#text']);
  return undefined;
}

/** A child element as an object (undefined for text or absence). */
export function child(node: unknown, name: string): XmlNode | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const c = (node as XmlNode)[name];
  return c && typeof c === 'object' && !Array.isArray(c) ? (c as XmlNode) : undefined;
}

/** Repeated child elements as a list (one element or none read as one or zero). */
export function children(node: unknown, name: string): unknown[] {
  if (!node || typeof node !== 'object') return [];
  const c = (node as XmlNode)[name];
  return c === undefined || c === '' ? [] : Array.isArray(c) ? c : [c];
}

/** An attribute value, or undefined. */
export function attr(node: unknown, name: string): string | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const a = (node as XmlNode)[`@_${name}`];
  return a === undefined ? undefined : String(a);
}
