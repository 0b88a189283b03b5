/**
 * The XML of SAML messages: parsed with @xmldom/xmldom the way Elasticsearch's secure parser
 * does (no document type declarations, so no entities to expand; any error refuses the
 * message), plus the few DOM look-ups the SAML handlers need and escaping for the messages
 * Shoal writes.
 */
import { DOMParser, type Element, type Node } from '@xmldom/xmldom';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  xmlenc: 'http://www.w3.org/2001/04/xmlenc#',
} as const;

export const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
export const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
export const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

/** A message that could not be read, or did not say what SAML requires (SamlUtils.samlException). */
export class SamlException extends Error {}

export function samlFailure(reason: string): never {
  throw new SamlException(reason);
}

/** The document element of `xml`; refuses a DTD and anything not well formed. */
export function parseXml(xml: string): Element {
  if (/<!DOCTYPE/i.test(xml)) samlFailure('Failed to parse SAML message: a DOCTYPE is not allowed');
  let root: Element | null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(xml, 'text/xml');
    root = doc.documentElement;
  } catch (e) {
    samlFailure(`Failed to parse SAML message: ${(e as Error).message}`);
  }
  if (!root) samlFailure('Failed to parse SAML message: no document element');
  return root;
}

function isElement(n: Node): n is Element {
  return n.nodeType === 1;
}

/** The element children of `parent` named `{ns}local`, in order. */
export function children(parent: Element, ns: string, local: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (isElement(n) && n.namespaceURI === ns && n.localName === local) out.push(n);
  }
  return out;
}

export function child(parent: Element, ns: string, local: string): Element | undefined {
  return children(parent, ns, local)[0];
}

/** Every descendant element named `{ns}local`. */
export function descendants(parent: Element, ns: string, local: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, local));
}

/** An attribute's value, undefined when absent (the DOM answers an empty string). */
export function attr(el: Element | undefined, name: string): string | undefined {
  return el?.hasAttribute(name) ? el.getAttribute(name)! : undefined;
}

export function text(el: Element | undefined): string | undefined {
  return el ? (el.textContent ?? '').trim() : undefined;
}

export function is(el: Element, ns: string, local: string): boolean {
  return el.namespaceURI === ns && el.localName === local;
}

/** Escapes text and attribute values of the XML Shoal writes. */
export function escapeXml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An xs:dateTime as epoch milliseconds. */
export function instant(value: string, what: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) samlFailure(`Cannot parse the ${what} [${value}] as a date-time`);
  return t;
}

/** An xs:dateTime of `ms`, as SAML writes it (UTC, milliseconds). */
export function isoInstant(ms: number): string {
  return new Date(ms).toISOString();
}
