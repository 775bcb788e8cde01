package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.GenericRow;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.options.FileOptions;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reachable files of retained snapshots, and removal of a writer's uncommitted files. */
class UncommittedFilesTest {
    @TempDir
    Path dir;

    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Random rnd = new Random(43);

    private FileStoreTable table() {
        return Catalog.open(dir.toString())
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(false, 1, Map.of("write-only", "true", "changelog-producer", "lookup")));
    }

    private void append(FileStoreTable t, int commits, long firstIdentifier) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int i = 0; i < commits; i++) {
                for (int r = 0; r < 50; r++) {
                    GenericRow row = TableModel.randomRow(rnd, 60);
                    model.apply(row);
                    w.write(row);
                }
                c.commit(firstIdentifier + i, w.prepareCommit());
            }
        }
    }

    private static FileStoreTable compactorWithPrefix(FileStoreTable t, String prefix) {
        return t.copyWithOptions(Map.of(
                "write-only",
                "false",
                FileOptions.DATA_FILE_PREFIX.key(),
                prefix + "-data-",
                FileOptions.CHANGELOG_FILE_PREFIX.key(),
                prefix + "-changelog-"));
    }

    private static CommitMessage fullCompaction(FileStoreTable t) {
        TableCompactor c = t.newCompactor();
        return c.rewrite(c.plan(CompactStrategy.FULL, EntryFilter.ALL).get(0)).toCommitMessage(1);
    }

    private static Set<String> onDisk(Path bucketDir) throws Exception {
        try (Stream<Path> s = Files.list(bucketDir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    private static Set<String> names(List<DataFileMeta> files) {
        return files.stream().map(DataFileMeta::fileName).collect(Collectors.toSet());
    }

    @Test
    void referencedFilesAreThoseOfEveryRetainedSnapshotIncludingReplacedAndChangelogFiles() throws Exception {
        FileStoreTable t = table();
        append(t, 3, 1);
        Set<String> ingested = new HashSet<>(t.reachableFiles().referencedByRetainedSnapshots());
        CommitMessage compaction = fullCompaction(compactorWithPrefix(t, "cmp"));
        try (TableCommit c = t.newCommit("cmp")) {
            c.commit(1, List.of(compaction));
        }
        Set<String> referenced = t.reachableFiles().referencedByRetainedSnapshots();
        assertThat(referenced)
                .as("files replaced by the compaction are still in older snapshots")
                .containsAll(ingested)
                .containsAll(names(compaction.compactAfter()));
        assertThat(compaction.compactChangelogFiles())
                .as("the lookup producer wrote changelog")
                .isNotEmpty();
        assertThat(referenced).containsAll(names(compaction.compactChangelogFiles()));
        Path bucketDir = Path.of(t.paths().dataFile("", 0, "x").getParent().toUri());
        assertThat(onDisk(bucketDir)).containsAll(referenced);
        assertThat(t.reachableFiles().dataDirectoryFiles(n -> true))
                .extracting(p -> p.getName())
                .containsExactlyInAnyOrderElementsOf(onDisk(bucketDir));
    }

    @Test
    void removesOnlyTheWritersUnreferencedFiles() throws Exception {
        FileStoreTable t = table();
        append(t, 4, 1);
        CommitMessage committed = fullCompaction(compactorWithPrefix(t, "cmp-a0"));
        CommitMessage lost = fullCompaction(compactorWithPrefix(t, "cmp-a0"));
        CommitMessage running = fullCompaction(compactorWithPrefix(t, "cmp-a1"));
        try (TableCommit c = t.newCommit("cmp")) {
            c.commit(1, List.of(committed));
        }
        Path bucketDir = Path.of(t.paths().dataFile("", 0, "x").getParent().toUri());
        Set<String> before = onDisk(bucketDir);

        int removed = t.removeUncommittedFiles(n -> n.startsWith("cmp-a0-"), "attempt 0");

        Set<String> lostFiles = new HashSet<>(names(lost.compactAfter()));
        lostFiles.addAll(names(lost.compactChangelogFiles()));
        assertThat(removed).isEqualTo(lostFiles.size());
        Set<String> expected = new HashSet<>(before);
        expected.removeAll(lostFiles);
        assertThat(onDisk(bucketDir)).isEqualTo(expected);
        assertThat(onDisk(bucketDir))
                .containsAll(names(committed.compactAfter()))
                .containsAll(names(running.compactAfter()));
        assertThat(t.removeUncommittedFiles(n -> n.startsWith("cmp-a0-"), "attempt 0"))
                .as("idempotent")
                .isZero();
        assertThat(TableModel.toContents(TestTables.scan(t))).isEqualTo(model.contents());
    }
}
