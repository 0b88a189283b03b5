/**
 * User profiles (Elasticsearch's ProfileService): activated for an authenticated user, found
 * by uid, enabled and disabled, their labels and data updated with optimistic concurrency, and
 * suggested by name.
 */
import { illegalArgument, resourceNotFound } from '@shoal/protocol';
import type { Authentication } from '../authc/authentication.ts';
import type { VersionedIndexStore } from '../host.ts';
import {
  baseUid,
  mergeInto,
  type Profile,
  profileDocId,
  profileFromDoc,
  profileToDoc,
  profileUserOf,
} from './profile-document.ts';

/** More differentiators than any username has realms. */
const MAX_DIFFERENTIATOR = 100;

export function profileNotFound(): Error {
  return resourceNotFound('profile document not found');
}

export interface SuggestRequest {
  name: string;
  size: number;
  hint?: { uids?: string[]; labels?: Record<string, string[]> };
}

export class ProfileService {
  constructor(
    private readonly index: VersionedIndexStore,
    private readonly now: () => number,
  ) {}

  async get(uid: string): Promise<Profile | undefined> {
    const v = await this.index.get(profileDocId(uid));
    return v ? profileFromDoc(v) : undefined;
  }

  /**
   * Creates the subject's profile or brings it up to date (user, roles, last synchronized) and
   * enables it again; labels and data stay. A user is told apart by its realm: the same name
   * from another realm gets the next differentiator.
   */
  async activate(subject: Authentication): Promise<Profile> {
    if (subject.apiKey)
      throw illegalArgument('profile is supported for user only, but subject is a [api_key]');
    if (subject.realm.type === '_service_account')
      throw illegalArgument('profile is supported for user only, but subject is a [service_account]');
    const user = profileUserOf(subject);
    const base = baseUid(user.username);
    for (let n = 0; n < MAX_DIFFERENTIATOR; n++) {
      const uid = `${base}_${n}`;
      const existing = await this.get(uid);
      if (existing && existing.user.realm.name !== user.realm.name) continue;
      const next = {
        uid,
        enabled: true,
        lastSynchronized: this.now(),
        user,
        labels: existing?.labels ?? {},
        data: existing?.data ?? {},
      };
      const written = await this.index.put(profileDocId(uid), profileToDoc(next), {
        ...(existing ? { ifSeqNo: existing.seqNo, ifPrimaryTerm: existing.primaryTerm } : {}),
      });
      return profileFromDoc(written);
    }
    throw illegalArgument(`cannot find a free profile uid for user [${user.username}]`);
  }

  async setEnabled(uid: string, enabled: boolean): Promise<void> {
    const p = await this.get(uid);
    if (!p) throw profileNotFound();
    if (p.enabled === enabled) return;
    await this.index.put(profileDocId(uid), profileToDoc({ ...p, enabled }), {
      ifSeqNo: p.seqNo,
      ifPrimaryTerm: p.primaryTerm,
    });
  }

  async updateData(
    uid: string,
    update: { labels?: Record<string, unknown>; data?: Record<string, unknown> },
    expected: { ifSeqNo?: number; ifPrimaryTerm?: number },
  ): Promise<void> {
    const p = await this.get(uid);
    if (!p) throw profileNotFound();
    const next = {
      ...p,
      labels: update.labels ? mergeInto(p.labels, update.labels) : p.labels,
      data: update.data ? mergeInto(p.data, update.data) : p.data,
    };
    // Without a version asked for, the write still only goes over the version just read.
    await this.index.put(profileDocId(uid), profileToDoc(next), {
      ifSeqNo: expected.ifSeqNo ?? p.seqNo,
      ifPrimaryTerm: expected.ifPrimaryTerm ?? p.primaryTerm,
    });
  }

  /**
   * ProfileService.buildSearchRequestForSuggest: enabled profiles only; the name as a
   * fuzzy prefix query over username, full name and e-mail; hints only raise the score.
   */
  async suggest(
    r: SuggestRequest,
  ): Promise<{ total: { value: number; relation: string }; profiles: Profile[] }> {
    const must: unknown[] = [];
    if (r.name !== '') {
      must.push({
        multi_match: {
          query: r.name,
          type: 'bool_prefix',
          fuzziness: 'AUTO',
          fields: ['user_profile.user.username', 'user_profile.user.full_name', 'user_profile.user.email'],
        },
      });
    }
    const should: unknown[] = [];
    if (r.hint?.uids) should.push({ terms: { 'user_profile.uid': r.hint.uids } });
    for (const [key, values] of Object.entries(r.hint?.labels ?? {})) {
      should.push({ terms: { 'user_profile.label_terms': values.map((v) => `${key}=${v}`) } });
    }
    const found = await this.index.search({
      size: r.size,
      track_total_hits: true,
      query: {
        bool: {
          filter: [{ term: { 'user_profile.enabled': true } }],
          must,
          should,
          minimum_should_match: 0,
        },
      },
      sort: ['_score', { 'user_profile.last_synchronized': 'desc' }],
    });
    return { total: found.total, profiles: found.hits.map(profileFromDoc) };
  }
}
