/**
 * A user's roles compiled into one permission (Elasticsearch's `Role` built by
 * CompositeRolesStore): the cluster actions it grants, its index groups (names, privileges,
 * whether restricted indices are included) and whom it may run as. Answers are memoized: a
 * user sends the same few actions over and over.
 */
import type { User } from '../authc/user.ts';
import { clusterPrivilegeOrPattern } from './cluster-privileges.ts';
import { fieldRuleOf } from './field-security.ts';
import { bothLayers, type DocumentFieldAccess, type EntryRestriction, layerAccess } from './index-access.ts';
import { indexPrivilegeOrPattern } from './index-privileges.ts';
import { compilePatterns, type NamePredicate } from './patterns.ts';
import type { ApplicationPrivileges, RoleDescriptor } from './role-descriptor.ts';

/**
 * The restricted indices (the security system index and its siblings): a role reaches them
 * only through an entry with `allow_restricted_indices: true`, however wide its names.
 */
const RESTRICTED = /^\.security(?:-tokens|-profile)?(?:-[0-9]+)?$|^\.security-profile-.*$/;

export function isRestrictedIndex(name: string): boolean {
  return RESTRICTED.test(name);
}

interface IndexGroup {
  names: NamePredicate;
  /** Whether the group's names include `*` (then it reaches every non-restricted name). */
  everyName: boolean;
  privileges: NamePredicate;
  allowRestricted: boolean;
  /** The entry's `query` and `field_security` (none: every document and field). */
  restriction: EntryRestriction;
}

const MEMO_MAX = 4096;
const OWN_API_KEYS = 'manage_own_api_key';

function anyOf(preds: NamePredicate[]): NamePredicate {
  if (preds.length === 0) return () => false;
  if (preds.length === 1) return preds[0]!;
  return (a) => preds.some((p) => p(a));
}

/** What authorization asks of a user's permission (a role set, or an API key's limited one). */
export interface Permission {
  /** The role names found, sorted (the "effective roles" of a denial). */
  readonly names: string[];
  /** The assigned role names that exist nowhere. */
  readonly missing: string[];
  readonly descriptors: RoleDescriptor[];
  /** `manage_own_api_key`: the API-key actions on the user's own keys. */
  readonly ownApiKeys: boolean;
  cluster(action: string): boolean;
  index(action: string, name: string): boolean;
  indexEverywhere(action: string): boolean;
  indexSomewhere(action: string): boolean;
  runAs(username: string): boolean;
  /** Whether some index entry has a `query` or `field_security`. */
  readonly restrictsDocumentsOrFields: boolean;
  /**
   * The documents and fields `user` may see of an index (known by its name and its aliases'
   * names) through the entries that grant `action` there; undefined when not restricted.
   */
  documentFieldAccess(action: string, names: readonly string[], user: User): DocumentFieldAccess | undefined;
  /**
   * The application privilege entries, in layers: a privilege is granted when every layer
   * grants it (one layer for a role set; an API key adds its owner's).
   */
  applicationLayers(): ApplicationPrivileges[][];
  /**
   * Whether `global.application.manage` covers these applications (an empty list: only a
   * `*` does, as ManageApplicationPrivileges answers a request that names none).
   */
  managesApplications(applications: readonly string[]): boolean;
}

/**
 * An API key's permission: what its own role descriptors grant (when it has any), limited by
 * what its owner's roles granted when it was made (`limited_by`). An action must pass both.
 */
export class LimitedPermission implements Permission {
  readonly names: string[] = [];
  readonly missing: string[] = [];
  readonly descriptors: RoleDescriptor[];
  readonly ownApiKeys: boolean;
  readonly restrictsDocumentsOrFields: boolean;

  constructor(
    private readonly own: Permission | undefined,
    private readonly limitedBy: Permission,
  ) {
    this.descriptors = own ? own.descriptors : limitedBy.descriptors;
    this.ownApiKeys = (own?.ownApiKeys ?? true) && limitedBy.ownApiKeys;
    this.restrictsDocumentsOrFields =
      (own?.restrictsDocumentsOrFields ?? false) || limitedBy.restrictsDocumentsOrFields;
  }

  documentFieldAccess(action: string, names: readonly string[], user: User): DocumentFieldAccess | undefined {
    return bothLayers(
      this.own?.documentFieldAccess(action, names, user),
      this.limitedBy.documentFieldAccess(action, names, user),
    );
  }

  cluster(action: string): boolean {
    return (this.own?.cluster(action) ?? true) && this.limitedBy.cluster(action);
  }

  index(action: string, name: string): boolean {
    return (this.own?.index(action, name) ?? true) && this.limitedBy.index(action, name);
  }

  indexEverywhere(action: string): boolean {
    return (this.own?.indexEverywhere(action) ?? true) && this.limitedBy.indexEverywhere(action);
  }

  indexSomewhere(action: string): boolean {
    return (this.own?.indexSomewhere(action) ?? true) && this.limitedBy.indexSomewhere(action);
  }

  /** An API key never runs as anyone. */
  runAs(): boolean {
    return false;
  }

  applicationLayers(): ApplicationPrivileges[][] {
    return [...(this.own?.applicationLayers() ?? []), ...this.limitedBy.applicationLayers()];
  }

  managesApplications(applications: readonly string[]): boolean {
    return (
      (this.own?.managesApplications(applications) ?? true) &&
      this.limitedBy.managesApplications(applications)
    );
  }
}

export class Role implements Permission {
  /** The role names found, sorted (the "effective roles" of a denial). */
  readonly names: string[];
  /** The assigned role names that exist nowhere. */
  readonly missing: string[];
  readonly descriptors: RoleDescriptor[];
  readonly ownApiKeys: boolean;
  readonly restrictsDocumentsOrFields: boolean;
  private readonly clusterPred: NamePredicate;
  private readonly groups: IndexGroup[];
  private readonly runAsPred: NamePredicate;
  private readonly clusterMemo = new Map<string, boolean>();
  private readonly indexMemo = new Map<string, boolean>();
  private readonly allMemo = new Map<string, boolean>();

  constructor(found: { name: string; descriptor: RoleDescriptor }[], missing: string[]) {
    this.names = found.map((f) => f.name).sort();
    this.missing = [...missing].sort();
    this.descriptors = found.map((f) => f.descriptor);
    const cluster: NamePredicate[] = [];
    this.groups = [];
    const runAs: string[] = [];
    let ownApiKeys = false;
    for (const { descriptor: d } of found) {
      for (const c of d.cluster) {
        // Granted per request by the API-key handlers (the caller's own keys only).
        if (c === OWN_API_KEYS) {
          ownApiKeys = true;
          continue;
        }
        const p = clusterPrivilegeOrPattern(c);
        if (p) cluster.push(p);
      }
      for (const ip of d.indices) {
        const privs = ip.privileges
          .map(indexPrivilegeOrPattern)
          .filter((p): p is NamePredicate => p !== undefined);
        const restriction: EntryRestriction = {};
        if (ip.query !== undefined) restriction.query = ip.query;
        if (ip.fieldSecurity) restriction.fields = fieldRuleOf(ip.fieldSecurity);
        this.groups.push({
          names: compilePatterns(ip.names),
          everyName: ip.names.includes('*'),
          privileges: anyOf(privs),
          allowRestricted: ip.allowRestrictedIndices,
          restriction,
        });
      }
      runAs.push(...d.runAs);
    }
    this.ownApiKeys = ownApiKeys;
    this.restrictsDocumentsOrFields = this.groups.some(
      (g) => g.restriction.query !== undefined || g.restriction.fields !== undefined,
    );
    this.clusterPred = anyOf(cluster);
    this.runAsPred = compilePatterns(runAs);
  }

  cluster(action: string): boolean {
    let v = this.clusterMemo.get(action);
    if (v === undefined) {
      v = this.clusterPred(action);
      if (this.clusterMemo.size >= MEMO_MAX) this.clusterMemo.clear();
      this.clusterMemo.set(action, v);
    }
    return v;
  }

  /** Whether the action is granted on this index or alias name. */
  index(action: string, name: string): boolean {
    const key = `${action}\u0000${name}`;
    let v = this.indexMemo.get(key);
    if (v === undefined) {
      const restricted = isRestrictedIndex(name);
      v = this.groups.some(
        (g) => (g.allowRestricted || !restricted) && g.privileges(action) && g.names(name),
      );
      if (this.indexMemo.size >= MEMO_MAX) this.indexMemo.clear();
      this.indexMemo.set(key, v);
    }
    return v;
  }

  /** Whether the action is granted on every non-restricted name (a `*` entry grants it). */
  indexEverywhere(action: string): boolean {
    let v = this.allMemo.get(action);
    if (v === undefined) {
      v = this.groups.some((g) => g.everyName && g.privileges(action));
      this.allMemo.set(action, v);
    }
    return v;
  }

  /** Whether the action is granted on some names (scroll continuations ask only this). */
  indexSomewhere(action: string): boolean {
    return this.groups.some((g) => g.privileges(action));
  }

  runAs(username: string): boolean {
    return this.runAsPred(username);
  }

  documentFieldAccess(action: string, names: readonly string[], user: User): DocumentFieldAccess | undefined {
    if (!this.restrictsDocumentsOrFields) return undefined;
    const granting = this.groups.filter(
      (g) =>
        g.privileges(action) && names.some((n) => (g.allowRestricted || !isRestrictedIndex(n)) && g.names(n)),
    );
    return layerAccess(
      granting.map((g) => g.restriction),
      user,
    );
  }

  applicationLayers(): ApplicationPrivileges[][] {
    return [this.descriptors.flatMap((d) => d.applications)];
  }

  managesApplications(applications: readonly string[]): boolean {
    const patterns = this.descriptors.flatMap((d) => d.global?.manageApplications ?? []);
    if (patterns.length === 0) return false;
    if (applications.length === 0) return patterns.includes('*');
    const matches = compilePatterns(patterns);
    return applications.every((a) => matches(a));
  }
}
