/**
 * Application privileges in the security index, one document per privilege with the id
 * Elasticsearch gives it (`application-privilege_<app>:<name>`). All of them are read at once
 * and kept until one changes or `_clear_cache` asks: they are few, and every `_has_privileges`
 * with an application reads them.
 */
import type { ApplicationPrivilegeDescriptor } from '../authz/application-privileges.ts';
import type { SystemIndexStore } from '../host.ts';

export const APPLICATION_PRIVILEGE_TYPE = 'application-privilege';

const docId = (application: string, name: string) => `${APPLICATION_PRIVILEGE_TYPE}_${application}:${name}`;

export class ApplicationPrivilegeStore {
  private all: Promise<ApplicationPrivilegeDescriptor[]> | undefined;

  constructor(private readonly store: SystemIndexStore) {}

  /** Every stored privilege, sorted by application then name. */
  list(): Promise<ApplicationPrivilegeDescriptor[]> {
    this.all ??= this.store.listByType(APPLICATION_PRIVILEGE_TYPE).then((docs) =>
      docs
        .map(({ doc }) => ({
          application: String(doc.application),
          name: String(doc.name),
          actions: Array.isArray(doc.actions) ? (doc.actions as string[]) : [],
          metadata: (doc.metadata as Record<string, unknown>) ?? {},
        }))
        .sort((a, b) =>
          a.application === b.application
            ? a.name < b.name
              ? -1
              : 1
            : a.application < b.application
              ? -1
              : 1,
        ),
    );
    const loading = this.all;
    // A failed read is not remembered: the next call reads again.
    loading.catch(() => {
      if (this.all === loading) this.all = undefined;
    });
    return loading;
  }

  async put(d: ApplicationPrivilegeDescriptor): Promise<'created' | 'updated'> {
    const r = await this.store.put(docId(d.application, d.name), {
      type: APPLICATION_PRIVILEGE_TYPE,
      application: d.application,
      name: d.name,
      actions: d.actions,
      metadata: d.metadata,
    });
    this.invalidate();
    return r === 'created' ? 'created' : 'updated';
  }

  async delete(application: string, name: string): Promise<boolean> {
    const found = await this.store.delete(docId(application, name));
    this.invalidate();
    return found;
  }

  invalidate(): void {
    this.all = undefined;
  }
}
