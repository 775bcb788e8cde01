package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.fs.ScheduledFailureFileIO;
import io.strata.storage.fs.ScheduledFailureFileIO.Op;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.TagsTable;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tags pin their snapshot's data through expiration and orphan cleanup, and never land on a snapshot being expired. */
class TagsTest {
    @TempDir
    Path dir;

    /** Starts two days ahead of the file system's clock, so orphan cleanup sees every file as old. */
    private final ManualClock clock = new ManualClock(Instant.now().plus(Duration.ofDays(2)));

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Map<Long, Map<List<Object>, List<Object>>> contentsAt = new HashMap<>();
    private final Random rnd = new Random(23);
    private long identifier;

    private FileStoreTable create(Catalog catalog) {
        return catalog.createTable(
                "db",
                "t",
                TestTables.modelSchema(
                        true,
                        2,
                        Map.of(
                                "write-only", "true",
                                "changelog-producer", "lookup",
                                "compaction.small-file-ratio", "0",
                                "manifest.merge-min-count", "3",
                                "commit.lock.class", "io.strata.storage.fs.CommitLockTest$JvmLock")));
    }

    private void append(FileStoreTable t) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < 50; r++) {
                GenericRow row = TableModel.randomRow(rnd, 40);
                model.apply(row);
                w.write(row);
            }
            c.commit(++identifier, w.prepareCommit());
        }
        contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
    }

    private void compact(FileStoreTable t) {
        t.copyWithOptions(Map.of("write-only", "false"))
                .newCompactor()
                .compact(CompactStrategy.FULL, "c", ++identifier);
        contentsAt.put(t.snapshotManager().latestId().getAsLong(), new HashMap<>(model.contents()));
    }

    private static ExpireResult expireAll(FileStoreTable t) {
        return t.copyWithOptions(Map.of(
                        "snapshot.num-retained.min", "1",
                        "snapshot.time-retained", "0 s",
                        "snapshot.expire.limit", "1000"))
                .newSnapshotExpiration()
                .expire();
    }

    private Map<List<Object>, List<Object>> readTag(FileStoreTable t, String tag) {
        return TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag(tag)));
    }

    /** Files on disk outside the metadata directories are exactly what retained snapshots and tags reference. */
    private static void assertNoFileLeftOrMissing(FileStoreTable t, String what) {
        assertThat(TableFiles.onDisk(t))
                .as("%s: files on disk = files retained snapshots and tags reference", what)
                .isEqualTo(TableFiles.referenced(t));
    }

    @Test
    void aTagReadsItsSnapshotAfterItExpiredAndDeletingTheTagFreesItsFiles() throws Exception {
        FileStoreTable t = create(Catalog.open(dir.resolve("wh").toString()).withClock(clock));
        for (int i = 0; i < 3; i++) {
            append(t);
        }
        t.tags().create("before-compaction", Optional.empty(), Optional.empty());
        long tagged = t.snapshotManager().latestId().getAsLong();
        compact(t);
        append(t);
        t.tags().create("second", Optional.of(2L), Optional.empty());
        for (int i = 0; i < 4; i++) {
            append(t);
            if (i % 2 == 1) {
                compact(t);
            }
        }
        clock.advance(Duration.ofHours(3));

        ExpireResult r = expireAll(t);

        assertThat(r.plan().toId()).isEqualTo(t.snapshotManager().latestId().getAsLong());
        assertThat(readTag(t, "before-compaction")).isEqualTo(contentsAt.get(tagged));
        assertThat(readTag(t, "second")).isEqualTo(contentsAt.get(2L));
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertNoFileLeftOrMissing(t, "after expiring every snapshot but the latest");
        assertThat(t.newOrphanFilesClean(Duration.ofDays(1)).clean().deleted())
                .as("nothing a tag holds is an orphan")
                .isEmpty();
        assertThat(t.tags().list()).extracting(Tag::name).containsExactly("second", "before-compaction");

        t.tags().delete("before-compaction");
        OrphanCleanResult freed = t.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(freed.deleted())
                .as("the deleted tag's files are orphans now")
                .isNotEmpty();
        assertThat(readTag(t, "second")).isEqualTo(contentsAt.get(2L));
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertNoFileLeftOrMissing(t, "after deleting a tag and cleaning orphans");
    }

    @Test
    void tagErrorsNameTheTagAndTheTable() {
        FileStoreTable t = create(Catalog.open(dir.resolve("errors").toString()).withClock(clock));
        assertThatThrownBy(() -> t.tags().create("x", Optional.empty(), Optional.empty()))
                .hasMessageContaining("db.t has no snapshot to tag");
        append(t);
        append(t);
        t.tags().create("x", Optional.of(1L), Optional.empty());
        assertThatThrownBy(() -> t.tags().create("x", Optional.empty(), Optional.empty()))
                .hasMessageContaining("tag 'x' exists (on snapshot 1)");
        for (String bad : new String[] {"", "12", ".hidden", "a/b", "a b"}) {
            assertThatThrownBy(() -> t.tags().create(bad, Optional.empty(), Optional.empty()))
                    .as("'%s'", bad)
                    .hasMessageContaining("is not a tag name");
        }
        assertThatThrownBy(() -> t.tags().create("y", Optional.of(9L), Optional.empty()))
                .hasMessageContaining("no snapshot 9");
        assertThatThrownBy(() -> t.tags().delete("nope"))
                .hasMessageContaining("no tag 'nope'")
                .hasMessageContaining("[x]");
        assertThatThrownBy(() -> TestTables.scan(t.newReadBuilder().withTag("nope")))
                .hasMessageContaining("no tag 'nope'");
        assertThatThrownBy(() -> t.tags().create("z", Optional.empty(), Optional.of(Duration.ZERO)))
                .hasMessageContaining("retention must be positive");
    }

    @Test
    void aTagsRetentionEndsItAtTheNextExpiration() {
        FileStoreTable t = create(Catalog.open(dir.resolve("retain").toString()).withClock(clock));
        append(t);
        t.tags().create("daily", Optional.empty(), Optional.of(Duration.ofHours(1)));
        t.tags().create("kept", Optional.empty(), Optional.empty());
        long created = clock.millis();
        clock.advance(Duration.ofMinutes(59));
        assertThat(expireAll(t).tagsExpired()).isEmpty();
        assertThat(TagsTable.rows(t))
                .extracting(TagsTable.Row::tagName, TagsTable.Row::expiresAtMillis, TagsTable.Row::expired)
                .containsExactly(
                        tuple("daily", Optional.of(created + Duration.ofHours(1).toMillis()), false),
                        tuple("kept", Optional.empty(), false));
        clock.advance(Duration.ofMinutes(2));
        assertThat(TagsTable.rows(t)).extracting(TagsTable.Row::expired).containsExactly(true, false);
        TagsTable.Row daily = TagsTable.rows(t).get(0);
        assertThat(daily.snapshotId()).isEqualTo(1);
        assertThat(daily.recordCount())
                .isEqualTo(t.snapshotManager().snapshot(1).totalRecordCount());
        assertThat(daily.timeRetained()).contains(Duration.ofHours(1));
        assertThat(expireAll(t).tagsExpired()).containsExactly("daily");
        assertThat(t.tags().list()).extracting(Tag::name).containsExactly("kept");
    }

    /** An expiration that crashed left its journal: its snapshots cannot be tagged until it is finished. */
    @Test
    void aSnapshotBeingExpiredCannotBeTagged() throws Exception {
        String wh = dir.resolve("race").toString();
        ScheduledFailureFileIO io = new ScheduledFailureFileIO(wh);
        FileStoreTable t = create(Catalog.open(wh, io).withClock(clock));
        for (int i = 0; i < 4; i++) {
            append(t);
        }
        compact(t);
        clock.advance(Duration.ofHours(2));
        io.failNth(Op.DELETE, 2, 0); // the second snapshot file
        assertThatThrownBy(() -> expireAll(t)).hasStackTraceContaining("injected");
        io.heal();

        assertThatThrownBy(() -> t.tags().create("late", Optional.of(3L), Optional.empty()))
                .hasMessageContaining("snapshot 3 is being expired (snapshots 1..4)");
        assertThat(t.tags().list()).isEmpty();
        expireAll(t);
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(5);
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
        assertNoFileLeftOrMissing(t, "after the interrupted expiration finished");
    }
}
