/**
 * vega-datasets' `movies.json`: 3,201 films with box-office figures and ratings. Documents are
 * the rows as they are, with one correction: JSON parsing turned nine titles into numbers
 * ("1408", "2012", "300", …); they are indexed as the strings they are. `null` values are kept
 * (Elasticsearch treats an explicit null as a missing value). `_id` is the 0-based row number.
 */
import type { SampleDataset } from './dataset.ts';
import { readDatasetFile } from './dataset.ts';

export type MovieRow = Record<string, string | number | null>;

const textWithKeyword = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

export const moviesMappings = {
  properties: {
    Title: textWithKeyword,
    'US Gross': { type: 'long' },
    'Worldwide Gross': { type: 'long' },
    'US DVD Sales': { type: 'long' },
    'Production Budget': { type: 'long' },
    'Release Date': { type: 'date', format: 'MMM dd yyyy' },
    'MPAA Rating': { type: 'keyword' },
    'Running Time min': { type: 'integer' },
    Distributor: { type: 'keyword' },
    Source: { type: 'keyword' },
    'Major Genre': { type: 'keyword' },
    'Creative Type': { type: 'keyword' },
    Director: textWithKeyword,
    'Rotten Tomatoes Rating': { type: 'integer' },
    'IMDB Rating': { type: 'float' },
    'IMDB Votes': { type: 'integer' },
  },
};

let rows: MovieRow[] | undefined;

export function movieRows(): MovieRow[] {
  rows ??= readDatasetFile<MovieRow[]>('movies.json');
  return rows;
}

export const movies: SampleDataset<MovieRow> = {
  name: 'movies',
  index: 'movies',
  mappings: moviesMappings,
  count: () => movieRows().length,
  *docs() {
    const all = movieRows();
    for (let i = 0; i < all.length; i++) {
      const row = all[i]!;
      const source = typeof row.Title === 'number' ? { ...row, Title: String(row.Title) } : row;
      yield { id: String(i), source };
    }
  },
};
