import { describe, expect, it } from 'vitest';
import { errorBody } from '../errors/error-body.ts';
import { isShoalError, type ShoalError } from '../errors/shoal-error.ts';
import { negotiateMediaType as negotiate, negotiateRequest as negotiateMediaType } from './media-type.ts';

function failure(f: () => unknown): ShoalError {
  try {
    f();
  } catch (e) {
    if (isShoalError(e)) return e;
    throw e;
  }
  throw new Error('did not throw');
}

const VND7 = 'application/vnd.elasticsearch+json; compatible-with=7';
const VND8 = 'application/vnd.elasticsearch+json;compatible-with=8';

describe('negotiateMediaType', () => {
  it('answers JSON by default', () => {
    expect(negotiateMediaType(undefined, undefined, { hasBody: false })).toEqual({
      responseContentType: 'application/json',
      compatibleWith: 8,
      requestNdjson: false,
      requestFormat: 'json',
      responseFormat: 'json',
    });
    expect(
      negotiateMediaType('*/*', 'application/json; charset=UTF-8', { hasBody: true }).responseContentType,
    ).toBe('application/json');
    expect(negotiateMediaType('text/html', 'application/json', { hasBody: true }).responseContentType).toBe(
      'application/json',
    );
  });

  it('gives the response type alone', () => {
    expect(negotiate(undefined, undefined)).toBe('application/json');
    expect(negotiate(VND7, undefined)).toBe('application/vnd.elasticsearch+json;compatible-with=7');
  });

  it('recognises ndjson bodies', () => {
    expect(negotiateMediaType(undefined, 'application/x-ndjson', { hasBody: true }).requestNdjson).toBe(true);
  });

  it('honours compatible-with on both headers', () => {
    expect(negotiateMediaType(VND7, VND7, { hasBody: true })).toEqual({
      responseContentType: 'application/vnd.elasticsearch+json;compatible-with=7',
      compatibleWith: 7,
      requestNdjson: false,
      requestFormat: 'json',
      responseFormat: 'json',
    });
    expect(negotiateMediaType(VND8, undefined, { hasBody: false }).responseContentType).toBe(
      'application/vnd.elasticsearch+json;compatible-with=8',
    );
    expect(
      negotiateMediaType(VND7, 'application/vnd.elasticsearch+x-ndjson; compatible-with=7', {
        hasBody: true,
      }),
    ).toMatchObject({ compatibleWith: 7, requestNdjson: true });
  });

  it('refuses mismatched compatible versions', () => {
    const e = failure(() => negotiateMediaType(undefined, VND7, { hasBody: true }));
    expect(e.type).toBe('media_type_header_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe('Invalid media-type value on headers [Accept, Content-Type]');
    expect(e.causedBy?.type).toBe('status_exception');
    expect(e.causedBy?.reason).toBe(
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
        `compatible version and the compatible versions must match. Accept=null, Content-Type=${VND7}`,
    );
    expect(
      failure(() => negotiateMediaType(VND8, 'application/json', { hasBody: true })).causedBy?.reason,
    ).toBe(
      'A compatible version is required on both Content-Type and Accept headers if either one has requested a ' +
        `compatible version. Accept=${VND8}, Content-Type=application/json`,
    );
    expect(
      failure(() =>
        negotiateMediaType('application/vnd.elasticsearch+json; compatible-with=6', undefined, {
          hasBody: false,
        }),
      ).causedBy?.reason,
    ).toBe(
      'Accept version must be either version 8 or 7, but found 6. Accept=application/vnd.elasticsearch+json; compatible-with=6',
    );
    expect(failure(() => negotiateMediaType(VND7, VND8, { hasBody: true })).causedBy?.reason).toMatch(
      /the compatible versions must match/,
    );
  });

  it('answers 406 for bodies of other types', () => {
    const e = failure(() => negotiateMediaType(undefined, 'text/plain', { hasBody: true }));
    expect(errorBody(e)).toEqual({
      status: 406,
      body: { error: 'Content-Type header [text/plain] is not supported', status: 406 },
    });
    expect(failure(() => negotiateMediaType(undefined, undefined, { hasBody: true })).reason).toBe(
      'Content-Type header is missing',
    );
    expect(
      failure(() => negotiateMediaType(undefined, 'application/x-www-form-urlencoded', { hasBody: true }))
        .status,
    ).toBe(406);
    // No body: the Content-Type does not matter.
    expect(negotiateMediaType(undefined, 'text/plain', { hasBody: false }).compatibleWith).toBe(8);
  });

  it('refuses unparseable headers with 400', () => {
    const e = failure(() => negotiateMediaType(undefined, 'garbage', { hasBody: true }));
    expect(e.reason).toBe('Invalid media-type value on headers [Content-Type]');
    expect(e.causedBy?.reason).toBe('invalid media-type [garbage]');
  });

  it('says 501 for SMILE, the one x-content type Shoal does not speak', () => {
    expect(failure(() => negotiateMediaType('application/smile', undefined, { hasBody: false })).status).toBe(
      501,
    );
    expect(failure(() => negotiateMediaType(undefined, 'application/smile', { hasBody: true })).status).toBe(
      501,
    );
  });

  it('reads and writes YAML and CBOR, answering in the body’s format when no Accept asks another', () => {
    expect(negotiateMediaType('application/yaml', undefined, { hasBody: false })).toMatchObject({
      responseContentType: 'application/yaml',
      responseFormat: 'yaml',
    });
    expect(negotiateMediaType(undefined, 'application/cbor', { hasBody: true })).toMatchObject({
      responseContentType: 'application/cbor',
      requestFormat: 'cbor',
      responseFormat: 'cbor',
    });
    expect(negotiateMediaType('application/json', 'application/yaml', { hasBody: true })).toMatchObject({
      responseContentType: 'application/json',
      requestFormat: 'yaml',
      responseFormat: 'json',
    });
  });

  it('refuses an Accept version outside 7 and 8 on both headers, with or without a body', () => {
    const nine = 'application/vnd.elasticsearch+json;compatible-with=9';
    const e = failure(() => negotiateMediaType(nine, undefined, { hasBody: false }));
    expect(e.type).toBe('media_type_header_exception');
    expect(e.status).toBe(400);
    expect(e.reason).toBe('Invalid media-type value on headers [Accept, Content-Type]');
    expect(e.causedBy?.type).toBe('status_exception');
    expect(e.causedBy?.reason).toBe(
      `Accept version must be either version 8 or 7, but found 9. Accept=${nine}`,
    );
    expect(failure(() => negotiateMediaType(nine, nine, { hasBody: true })).causedBy?.reason).toMatch(
      /^Accept version must be either version 8 or 7, but found 9/,
    );
  });

  it('refuses a Content-Type version outside 7 and 8 only when there is a body', () => {
    const nine = 'application/vnd.elasticsearch+json;compatible-with=9';
    expect(failure(() => negotiateMediaType(VND8, nine, { hasBody: true })).causedBy?.reason).toBe(
      `Content-Type version must be either version 8 or 7, but found 9. Content-Type=${nine}`,
    );
    expect(negotiateMediaType(undefined, nine, { hasBody: false }).compatibleWith).toBe(8);
  });

  it('reads compatible-with on any media type, as RestCompatibleVersionHelper does', () => {
    expect(
      failure(() => negotiateMediaType('application/json; compatible-with=9', undefined, { hasBody: false }))
        .causedBy?.reason,
    ).toMatch(/but found 9/);
    const e = failure(() =>
      negotiateMediaType('application/vnd.elasticsearch+json;compatible-with=x', undefined, {
        hasBody: false,
      }),
    );
    expect(e.status).toBe(400);
    expect(e.type).toBe('media_type_header_exception');
    expect(e.causedBy?.type).toBe('number_format_exception');
  });

  it('accepts the body types Elasticsearch reads as JSON', () => {
    for (const type of [
      'application/json',
      'application/json; charset=UTF-8',
      'application/json;charset=utf-8',
      'Application/JSON',
      'application/*',
      'application/x-ndjson',
    ]) {
      expect(negotiateMediaType(undefined, type, { hasBody: true }).compatibleWith, type).toBe(8);
    }
    expect(
      negotiateMediaType(VND8, 'application/vnd.elasticsearch+x-ndjson;compatible-with=8', { hasBody: true }),
    ).toMatchObject({ compatibleWith: 8, requestNdjson: true });
  });

  it('refuses every browser-safelisted body type with 406 and the header as sent', () => {
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/html',
    ]) {
      expect(errorBody(failure(() => negotiateMediaType(undefined, type, { hasBody: true })))).toEqual({
        status: 406,
        body: { error: `Content-Type header [${type}] is not supported`, status: 406 },
      });
    }
  });

  it('leaves the body type to the handler lookup when no route was found', () => {
    expect(negotiateMediaType(undefined, 'text/plain', { hasBody: true, routed: false }).compatibleWith).toBe(
      8,
    );
    expect(failure(() => negotiateMediaType(undefined, VND7, { hasBody: true, routed: false })).type).toBe(
      'media_type_header_exception',
    );
  });

  it('refuses an empty header as RestRequest does', () => {
    const e = failure(() => negotiateMediaType(' ', undefined, { hasBody: false }));
    expect(e.reason).toBe('Invalid media-type value on headers [Accept]');
    expect(e.causedBy?.reason).toBe('Header [Accept] cannot be empty.');
  });

  it('answers JSON for an Accept it cannot match', () => {
    for (const accept of [
      'text/html',
      'image/png',
      'text/html,application/xhtml+xml',
      '*/*',
      'application/*',
    ]) {
      expect(negotiateMediaType(accept, undefined, { hasBody: false }).responseContentType, accept).toBe(
        'application/json',
      );
    }
  });
});
