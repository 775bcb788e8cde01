package io.strata.compaction.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.compaction.JobTestSupport;
import io.strata.storage.commit.CommitMessage;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.fs.DelegatingFileIO;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expiration and orphan cleanup with their bulk steps in a Flink job give what the single-process
 * run gives on a copy of the same table: the same result (files per kind, paths and sizes, refused
 * paths), the same files left on disk and the same reads. A delete that fails part way through the
 * job fails the run clearly, leaves a readable table, and a rerun finishes.
 */
class FlinkMaintenanceTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(4)
            .build());

    /** Retention of the expiration runs: the 3 latest snapshots, whatever their age. */
    private static final Map<String, String> RETAIN_3 = Map.of(
            "snapshot.num-retained.min", "1",
            "snapshot.num-retained.max", "3",
            "snapshot.expire.limit", "1000",
            // small pages of the engine's deleter, so a task runs several of them on several threads
            "maintenance.delete-threads", "2");

    @TempDir
    Path dir;

    private final ManualClock later = new ManualClock(Instant.now().plus(Duration.ofDays(2)));
    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);

    /** A partitioned table of 3 buckets with appends and compactions: most expired snapshots free files. */
    private String history(String name) {
        String wh = dir.resolve(name).toString();
        FileStoreTable t = JobTestSupport.create(wh, "t", true, 3, Map.of("manifest.merge-min-count", "3"));
        Random rnd = new Random(42);
        long identifier = 1;
        for (int round = 0; round < 6; round++) {
            JobTestSupport.ingest(t, model, rnd, 3, 60, 80, "w", identifier);
            identifier += 3;
            t.copyWithOptions(Map.of("write-only", "false"))
                    .newCompactor()
                    .compact(round % 2 == 0 ? CompactStrategy.FULL : CompactStrategy.MINOR, "compactor", identifier++);
        }
        return wh;
    }

    private static String copy(String from, String to) throws IOException {
        Path src = Path.of(from);
        Path dst = Path.of(to);
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.collect(Collectors.toList())) {
                Path target = dst.resolve(src.relativize(p));
                if (Files.isSymbolicLink(p)) {
                    Files.createSymbolicLink(target, Files.readSymbolicLink(p));
                } else if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        return to;
    }

    private FileStoreTable open(String wh) {
        return Catalog.open(wh).withClock(later).getTable("db.t");
    }

    private static FlinkMaintenance flink(TableOpener opener, int parallelism) {
        // 10 files a task: the few hundred files of the test table make many tasks for the subtasks to share
        return new FlinkMaintenance(opener, parallelism, 10, p -> StreamExecutionEnvironment.getExecutionEnvironment());
    }

    /** Jobs submitted to the test cluster through its REST endpoint (its classes are this class path's). */
    private static FlinkMaintenance onCluster(TableOpener opener) {
        // the extension makes every environment of the test its own; a REST client is not one of them
        TestStreamEnvironment.unsetAsContext();
        Configuration client = CLUSTER.getClientConfiguration();
        return FlinkMaintenance.onCluster(
                opener, 2, client.get(RestOptions.ADDRESS), client.get(RestOptions.PORT), null);
    }

    private static TableOpener opener(String wh, Map<String, String> options) {
        return TableOpener.of(wh, "db.t", options);
    }

    /** The warehouse-relative form of a file of {@code wh}. */
    private static String rel(String wh, String path) {
        String p = new org.apache.hadoop.fs.Path(path).toUri().getPath();
        return Path.of(wh).toAbsolutePath().relativize(Path.of(p)).toString();
    }

    private static List<String> rel(String wh, List<TableFile> files) {
        List<String> out = new ArrayList<>();
        for (TableFile f : files) {
            out.add(f.kind() + " " + rel(wh, f.path()) + " " + f.size());
        }
        return out;
    }

    private static Set<String> filesOnDisk(String wh) throws IOException {
        Path root = Path.of(wh);
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                    .map(p -> root.relativize(p).toString())
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    /** What every retained snapshot reads, by id. */
    private static Map<Long, Map<List<Object>, List<Object>>> reads(FileStoreTable t) {
        Map<Long, Map<List<Object>, List<Object>>> out = new HashMap<>();
        for (long id = t.snapshotManager().earliestId().getAsLong();
                id <= t.snapshotManager().latestId().getAsLong();
                id++) {
            out.put(id, TableModel.toContents(TestTables.scan(t.newReadBuilder().withSnapshot(id))));
        }
        return out;
    }

    @Test
    void expirationInAFlinkJobDeletesWhatTheSingleProcessRunDeletes() throws Exception {
        String a = history("a");
        String b = copy(a, dir.resolve("b").toString());
        Map<Long, Map<List<Object>, List<Object>>> before = reads(open(a).copyWithOptions(RETAIN_3));

        ExpireResult local =
                open(a).copyWithOptions(RETAIN_3).newSnapshotExpiration().expire();
        ExpireResult job = open(b).copyWithOptions(RETAIN_3)
                .newSnapshotExpiration()
                .deletingWith(flink(opener(b, RETAIN_3), 3))
                .expire();

        assertThat(local.plan().snapshotsExpired()).isGreaterThan(15);
        assertThat(local.deletedCounts().get(TableFile.Kind.DATA)).isGreaterThan(30);
        assertThat(local.deletedCounts().get(TableFile.Kind.MANIFEST)).isPositive();
        assertThat(rel(b, job.deleted())).isEqualTo(rel(a, local.deleted()));
        assertThat(job.deletedBytes()).isEqualTo(local.deletedBytes());
        assertThat(job.plan().toId()).isEqualTo(local.plan().toId());
        assertThat(filesOnDisk(b)).isEqualTo(filesOnDisk(a));
        Map<Long, Map<List<Object>, List<Object>>> after = reads(open(b));
        assertThat(after).isEqualTo(reads(open(a)));
        after.forEach(
                (id, contents) -> assertThat(contents).as("snapshot %d", id).isEqualTo(before.get(id)));
        assertThat(TableModel.toContents(TestTables.scan(open(b)))).isEqualTo(model.contents());
    }

    @Test
    void orphanCleanupInAFlinkJobFindsAndDeletesWhatTheSingleProcessRunDoes() throws Exception {
        String a = history("a");
        FileStoreTable t = open(a);
        // orphans: a writer's files it never committed, temporaries in a bucket and in manifest/
        try (TableWrite w = t.newWrite("lost")) {
            Random rnd = new Random(7);
            for (int r = 0; r < 200; r++) {
                w.write(TableModel.randomRow(rnd, 80));
            }
            List<CommitMessage> lost = w.prepareCommit();
            assertThat(lost).isNotEmpty();
        }
        Path root = Path.of(t.paths().root().toUri());
        Path bucket;
        try (Stream<Path> s = Files.walk(root)) {
            bucket = s.filter(p -> p.getFileName().toString().equals("bucket-1"))
                    .findFirst()
                    .orElseThrow();
        }
        Files.writeString(bucket.resolve(".data-crashed.parquet.tmp"), "x");
        Files.writeString(root.resolve("manifest").resolve(".manifest-crashed.tmp"), "x");
        // a link in a bucket directory to a file outside the table: refused, never followed or deleted
        Path outside = Files.writeString(dir.resolve("outside.parquet"), "keep");
        Files.createSymbolicLink(bucket.resolve("data-link.parquet"), outside);
        String b = copy(a, dir.resolve("b").toString());

        OrphanCleanResult dryRun = OrphanFilesClean.olderThan(open(b).context(), Duration.ofDays(1))
                .runningWith(flink(opener(b, Map.of()), 3), flink(opener(b, Map.of()), 3))
                .dryRun();
        OrphanCleanResult local = OrphanFilesClean.olderThan(open(a).context(), Duration.ofDays(1))
                .clean();
        FlinkMaintenance job = flink(opener(b, Map.of()), 3);
        OrphanCleanResult viaJob = OrphanFilesClean.olderThan(open(b).context(), Duration.ofDays(1))
                .runningWith(job, job)
                .clean();

        assertThat(local.deleted()).hasSizeGreaterThan(3);
        assertThat(rel(b, dryRun.orphans())).isEqualTo(rel(a, local.orphans()));
        assertThat(rel(b, viaJob.orphans())).isEqualTo(rel(a, local.orphans()));
        assertThat(rel(b, viaJob.deleted())).isEqualTo(rel(a, local.deleted()));
        assertThat(viaJob.scanned()).isEqualTo(local.scanned());
        assertThat(viaJob.youngSkipped()).isEqualTo(local.youngSkipped());
        assertThat(viaJob.refused()).hasSize(1);
        assertThat(viaJob.refused().get(0)).contains("data-link.parquet", "symbolic link");
        assertThat(local.refused()).hasSize(1);
        assertThat(Files.readString(outside)).isEqualTo("keep");
        assertThat(filesOnDisk(b)).isEqualTo(filesOnDisk(a));
        assertThat(reads(open(b))).isEqualTo(reads(open(a)));
        assertThat(TableModel.toContents(TestTables.scan(open(b)))).isEqualTo(model.contents());
    }

    /** Fails the delete of every third data file, as an object store that refuses some requests would. */
    public static final class FailingDeletes extends DelegatingFileIO {
        public FailingDeletes(String warehouse) {
            super(warehouse);
        }

        @Override
        public boolean delete(org.apache.hadoop.fs.Path path) throws IOException {
            String name = path.getName();
            if (name.startsWith("data-") && Math.floorMod(name.hashCode(), 3) == 0) {
                throw new IOException("injected: cannot delete " + path);
            }
            return super.delete(path);
        }
    }

    private static TableOpener failingOpener(String wh) {
        return () -> Catalog.open(wh, new FailingDeletes(wh)).getTable("db.t").copyWithOptions(RETAIN_3);
    }

    @Test
    void aDeleteThatFailsInTheJobFailsTheRunClearlyAndARerunFinishes() throws Exception {
        String a = history("a");
        String b = copy(a, dir.resolve("b").toString());
        ExpireResult local =
                open(a).copyWithOptions(RETAIN_3).newSnapshotExpiration().expire();

        assertThatThrownBy(() -> open(b).copyWithOptions(RETAIN_3)
                        .newSnapshotExpiration()
                        .deletingWith(flink(failingOpener(b), 3))
                        .expire())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("table db.t: expiration of snapshots 1..")
                .hasMessageContaining("the next run finishes it")
                .hasMessageContaining("injected: cannot delete");
        // readable meanwhile: every retained snapshot reads what the single-process run's table reads
        assertThat(reads(open(b))).isEqualTo(reads(open(a)));

        // the rerun goes to the cluster by REST, as a job submitted to a session cluster would
        ExpireResult rerun = open(b).copyWithOptions(RETAIN_3)
                .newSnapshotExpiration()
                .deletingWith(onCluster(opener(b, RETAIN_3)))
                .expire();
        assertThat(rerun.resumed()).isEqualTo(1);
        assertThat(rerun.plan().isEmpty()).isTrue();
        assertThat(filesOnDisk(b)).isEqualTo(filesOnDisk(a));
        assertThat(reads(open(b))).isEqualTo(reads(open(a)));
        assertThat(TableModel.toContents(TestTables.scan(open(b)))).isEqualTo(model.contents());
        assertThat(local.deleted()).isNotEmpty();
    }

    @Test
    void anOrphanDeleteThatFailsInTheJobFailsTheRunClearlyAndARerunFinishes() throws Exception {
        String a = history("a");
        try (TableWrite w = open(a).newWrite("lost")) {
            Random rnd = new Random(11);
            for (int r = 0; r < 400; r++) {
                w.write(TableModel.randomRow(rnd, 80));
            }
            assertThat(w.prepareCommit()).isNotEmpty();
        }
        String b = copy(a, dir.resolve("b").toString());
        OrphanCleanResult local = OrphanFilesClean.olderThan(open(a).context(), Duration.ofDays(1))
                .clean();
        assertThat(local.deleted()).hasSizeGreaterThan(3);

        FlinkMaintenance failing = flink(failingOpener(b), 3);
        assertThatThrownBy(() -> OrphanFilesClean.olderThan(open(b).context(), Duration.ofDays(1))
                        .runningWith(failing, failing)
                        .clean())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("table db.t: orphan cleanup stopped after deleting")
                .hasMessageContaining("injected: cannot delete");
        assertThat(reads(open(b))).isEqualTo(reads(open(a)));

        FlinkMaintenance rest = onCluster(opener(b, Map.of()));
        OrphanCleanResult rerun = OrphanFilesClean.olderThan(open(b).context(), Duration.ofDays(1))
                .runningWith(rest, rest)
                .clean();
        // the rerun lists again and deletes what the failed run left; the disks end up the same
        assertThat(rel(b, rerun.deleted())).isNotEmpty().isSubsetOf(rel(a, local.deleted()));
        assertThat(filesOnDisk(b)).isEqualTo(filesOnDisk(a));
        assertThat(reads(open(b))).isEqualTo(reads(open(a)));
        assertThat(TableModel.toContents(TestTables.scan(open(b)))).isEqualTo(model.contents());
    }
}
