package io.strata.scheduler.support;

import io.strata.scheduler.lease.TestDatabase;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The embedded PostgreSQL of a test class, registered on a static field with
 * {@code @RegisterExtension}. Every class of a test run shares one server, started by the first
 * class that registers this and stopped when the run ends (a server costs an initdb and a start);
 * tests stay apart because each takes a new, empty database with {@link #newDatabase()}. The
 * databases a class took have their pools closed after the class, so the server's connection
 * limit holds whatever the classes forget to close. A test that restarts or stops a server starts
 * its own ({@link TestDatabase#startPostgres()}).
 */
public final class PostgresServer implements BeforeAllCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(PostgresServer.class);

    private final List<TestDatabase> taken = new CopyOnWriteArrayList<>();
    private volatile EmbeddedPostgres server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = context.getRoot()
                .getStore(NAMESPACE)
                .getOrComputeIfAbsent(Running.class, k -> new Running(TestDatabase.startPostgres()), Running.class)
                .server();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        taken.forEach(TestDatabase::close);
        taken.clear();
    }

    /** A new, empty database on the shared server; REQUIRES: the class's {@code beforeAll} ran. */
    public TestDatabase newDatabase() {
        TestDatabase db = TestDatabase.postgres(server);
        taken.add(db);
        return db;
    }

    /** The server, closed by the run when it ends (JUnit closes what its root store holds). */
    private record Running(EmbeddedPostgres server) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
