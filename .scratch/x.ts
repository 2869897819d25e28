import { XMLBuilder, XMLParser } from 'fast-xml-parser';
const b = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressBooleanAttributes: false });
console.log(b.build({ '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' }, Markup: { Topic: { '@_Guid': 'a', Title: 'x < y & "z"', Labels: { Label: ['a', 'b'] }, Empty: '' } } }));
const p = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@_', parseTagValue: false, parseAttributeValue: false, isArray: (n) => ['Label','Comment'].includes(n) });
console.log(JSON.stringify(p.parse('<?xml version="1.0"?><Markup><Topic Guid="a"><Title>x &lt; y &amp; z</Title><Labels><Label>a</Label></Labels><Comment>line1\nline2  </Comment></Topic></Markup>')));
