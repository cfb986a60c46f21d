import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from "kysely";

/**
 * Kysely on PostgreSQL where every statement runs in a read-only transaction, with `settings`
 * made local to it: a write is refused by PostgreSQL itself (25006, "cannot execute INSERT in a
 * read-only transaction"), raw SQL included. Per transaction, not per session: through a pooler
 * in transaction mode a session SET would land on a server connection others get next, and the
 * next statement may get another one (docs/DECISIONS.md 169, 172). A lone statement costs two
 * more round trips (begin with the settings, commit); a transaction's begin carries them.
 */
export class ReadOnlyPostgresDialect extends PostgresDialect {
  readonly #begin: string;

  constructor(config: ConstructorParameters<typeof PostgresDialect>[0], settings: Record<string, string>) {
    super(config);
    // The names and values come from the server's own settings (a number or "off"), never a request.
    this.#begin = Object.entries(settings).reduce(
      (text, [name, value]) => `${text}; set local ${name} = ${value}`,
      "read only",
    );
  }

  override createDriver(): Driver {
    return new ReadOnlyDriver(super.createDriver(), this.#begin);
  }
}

/** The connection as the pool gave it, and whether a transaction of Kysely's is open on it. */
class ReadOnlyConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly begin: string,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) return this.inner.executeQuery<R>(query);
    try {
      await this.inner.executeQuery(CompiledQuery.raw(`start transaction ${this.begin}`));
      const result = await this.inner.executeQuery<R>(query);
      await this.inner.executeQuery(CompiledQuery.raw("commit"));
      return result;
    } catch (error) {
      // Not back to the pool inside a transaction (one of the begin's SETs may be what failed); a
      // lost connection fails this too, and the pool drops it.
      await this.inner.executeQuery(CompiledQuery.raw("rollback")).catch(() => {});
      throw error;
    }
  }

  // No cursor is configured (as for the primary): nothing streams.
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("the read-only database does not stream");
  }
}

class ReadOnlyDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly begin: string,
  ) {}

  init() {
    return this.inner.init();
  }

  async acquireConnection() {
    return new ReadOnlyConnection(await this.inner.acquireConnection(), this.begin);
  }

  async beginTransaction(connection: ReadOnlyConnection, settings: TransactionSettings) {
    const level = settings.isolationLevel ? `isolation level ${settings.isolationLevel} ` : "";
    await connection.inner.executeQuery(CompiledQuery.raw(`start transaction ${level}${this.begin}`));
    connection.inTransaction = true;
  }

  async commitTransaction(connection: ReadOnlyConnection) {
    connection.inTransaction = false;
    await this.inner.commitTransaction(connection.inner);
  }

  async rollbackTransaction(connection: ReadOnlyConnection) {
    connection.inTransaction = false;
    await this.inner.rollbackTransaction(connection.inner);
  }

  releaseConnection(connection: ReadOnlyConnection) {
    return this.inner.releaseConnection(connection.inner);
  }

  destroy() {
    return this.inner.destroy();
  }
}
