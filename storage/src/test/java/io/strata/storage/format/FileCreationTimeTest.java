package io.strata.storage.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.FilesTable;
import io.strata.storage.testutil.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A data or changelog file's creation time is the table clock's time when it was written (the
 * catalog's {@link Catalog#withClock clock}), whichever writer wrote it, and survives the manifest.
 */
class FileCreationTimeTest {
    private static final Instant START = Instant.parse("2026-03-01T08:00:00Z");

    @TempDir
    Path dir;

    private FileStoreTable table(ManualClock clock, String producer) {
        return Catalog.open(dir.toString())
                .withClock(clock)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("write-only", "true")
                                .option("changelog-producer", producer)
                                .build());
    }

    private static List<CommitMessage> write(FileStoreTable t, long identifier, String value) {
        try (TableWrite w = t.newWrite("u");
                TableCommit c = t.newCommit("u")) {
            for (long id = 0; id < 50; id++) {
                w.write(GenericRow.insert(id, value + id));
            }
            List<CommitMessage> msgs = w.prepareCommit();
            c.commit(identifier, msgs);
            return msgs;
        }
    }

    private static List<Long> liveFileTimes(FileStoreTable t) {
        List<Long> out = new ArrayList<>();
        for (FilesTable.FileRow r : FilesTable.rows(t, null)) {
            out.add(r.file.creationTimeMillis());
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "input"})
    void flushedFilesCarryTheTableClocksTime(String producer) {
        ManualClock clock = new ManualClock(START);
        FileStoreTable t = table(clock, producer);
        List<CommitMessage> msgs = write(t, 1, "a");

        List<DataFileMeta> written = new ArrayList<>();
        msgs.forEach(m -> {
            written.addAll(m.appendFiles());
            written.addAll(m.changelogFiles());
        });
        assertThat(written).hasSize(producer.equals("input") ? 2 : 1);
        assertThat(written)
                .allSatisfy(f -> assertThat(f.creationTimeMillis())
                        .as("file %s", f.fileName())
                        .isEqualTo(START.toEpochMilli()));
        assertThat(liveFileTimes(t))
                .as("creation times read back from the manifest")
                .containsOnly(START.toEpochMilli());
    }

    @Test
    void compactedFilesAndTheirChangelogCarryTheClocksTimeOfTheCompaction() {
        ManualClock clock = new ManualClock(START);
        FileStoreTable t = table(clock, "full-compaction");
        write(t, 1, "a");
        clock.advance(Duration.ofMinutes(5));
        write(t, 2, "b");
        assertThat(liveFileTimes(t))
                .containsExactlyInAnyOrder(
                        START.toEpochMilli(), START.plus(Duration.ofMinutes(5)).toEpochMilli());

        clock.advance(Duration.ofHours(1));
        long compactedAt = clock.millis();
        List<CompactResult> results = t.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);

        List<DataFileMeta> written = new ArrayList<>();
        results.forEach(r -> {
            written.addAll(r.after());
            written.addAll(r.changelog());
        });
        assertThat(results).allSatisfy(r -> assertThat(r.changelog()).isNotEmpty());
        assertThat(written)
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.creationTimeMillis())
                        .as("file %s", f.fileName())
                        .isEqualTo(compactedAt));
        assertThat(liveFileTimes(t)).containsOnly(compactedAt);
    }
}
