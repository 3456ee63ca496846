/**
 * Recording an admin or webhook action: the record is stored first (the log is what holds), then
 * announced on the bus as an `Audit` event. A bus that fails leaves the record stored and the error
 * thrown, so the caller sees it; the record is not written twice.
 */
import {
  type AuditEntry,
  type AuditRecord,
  buildAuditEvent,
  newAuditRecord,
} from "../../domain/audit/record.ts";
import type { AuditPage, AuditQuery } from "../../domain/audit/query.ts";
import type { AuditBus, AuditStorePort, Clock } from "../ports.ts";

export interface AuditLogDeps {
  store: AuditStorePort;
  /** Absent: records are stored and listed, not announced (a test's wiring). */
  bus?: AuditBus;
  now: Clock;
}

export class AuditLog {
  readonly #deps: AuditLogDeps;

  constructor(deps: AuditLogDeps) {
    this.#deps = deps;
  }

  async record(entry: AuditEntry): Promise<AuditRecord> {
    const record = newAuditRecord(entry, this.#deps.now());
    await this.#deps.store.append(record);
    await this.#deps.bus?.announce(buildAuditEvent(record));
    return record;
  }

  list(query: AuditQuery): Promise<AuditPage<AuditRecord>> {
    return this.#deps.store.list(query);
  }
}
