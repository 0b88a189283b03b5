import { describe, expect, it } from 'vitest';
import { isElasticsearchType, isXContentParseType } from './exception-kind.ts';

describe('isElasticsearchType', () => {
  it('separates Elasticsearch exceptions from Java and library ones', () => {
    expect(isElasticsearchType('index_not_found_exception')).toBe(true);
    expect(isElasticsearchType('search_phase_execution_exception')).toBe(true);
    expect(isElasticsearchType('illegal_argument_exception')).toBe(false);
    expect(isElasticsearchType('x_content_parse_exception')).toBe(false);
    expect(isElasticsearchType('es_rejected_execution_exception')).toBe(false);
    expect(isXContentParseType('x_content_e_o_f_exception')).toBe(true);
  });
});
