package io.strata.scheduler.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.scheduler.lease.TestDatabase;
import io.strata.scheduler.support.PostgresServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RunHistoryPostgresTest extends RunHistoryContract {

    @RegisterExtension
    static final PostgresServer POSTGRES = new PostgresServer();

    @Override
    TestDatabase newDatabase(Path directory) {
        return POSTGRES.newDatabase();
    }

    @Test
    void historyAndPausesSurviveAServerRestart() throws IOException, SQLException {
        Path data = tempDir.resolve("pgdata");
        List<Run> before;
        try (EmbeddedPostgres server = restartable(data);
                TestDatabase restarted = TestDatabase.createPostgres(server, "restarted")) {
            RunHistory runs = RunHistory.open(restarted.dataSource(), clock);
            long id = runs.start("db.a", "full-compaction", Optional.of("fire-1"), "s1");
            clock.advance(Duration.ofMinutes(3));
            runs.finish(id, RunResult.succeeded(new RunCounters(1, 2, 3, 4)));
            runs.start("db.b", "orphan-cleanup", Optional.empty(), "s1");
            PauseStore.open(restarted.dataSource(), clock)
                    .pause(Optional.of("db.a"), Optional.empty(), "alice", Optional.of("migrating"));
            before = runs.recent(Optional.empty(), 10);
        }
        try (EmbeddedPostgres server = restartable(data);
                TestDatabase restarted = TestDatabase.existingPostgres(server, "restarted")) {
            RunHistory runs = RunHistory.open(restarted.dataSource(), clock);
            assertThat(runs.recent(Optional.empty(), 10)).isEqualTo(before);
            assertThat(runs.markInterrupted("s1")).isEqualTo(1);
            assertThat(PauseStore.open(restarted.dataSource(), clock).isPaused("db.a", "minor-compaction"))
                    .isTrue();
        }
    }

    private static EmbeddedPostgres restartable(Path data) throws IOException {
        return EmbeddedPostgres.builder()
                .setDataDirectory(data)
                .setCleanDataDirectory(false)
                .start();
    }
}
