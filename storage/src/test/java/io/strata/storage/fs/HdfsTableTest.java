package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.MaintenanceModel;
import io.strata.storage.maintenance.OrphanCleanResult;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.TestTables;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The write/commit/scan flow on a real HDFS (a MiniDFSCluster in this JVM, one data node), where
 * snapshots are published with rename-without-overwrite.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HdfsTableTest {
    private static MiniDFSCluster cluster;
    private static Configuration conf;
    private static String warehouse;
    private static File baseDir;

    @BeforeAll
    static void startHdfs() throws Exception {
        // surefire runs in the module directory; keep everything the cluster writes under target/
        baseDir = new File("target", "minidfs-" + UUID.randomUUID()).getAbsoluteFile();
        Configuration c = new Configuration();
        c.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDir.getPath());
        c.set("dfs.namenode.http-address", "127.0.0.1:0");
        c.set("dfs.datanode.http.address", "127.0.0.1:0");
        c.setInt("dfs.replication", 1);
        // the client polls the name node while closing a file; start polling sooner than 400 ms
        c.setInt("dfs.client.block.write.locateFollowingBlock.initial.delay.ms", 10);
        cluster = new MiniDFSCluster.Builder(c, baseDir)
                .numDataNodes(1)
                .format(true)
                .build();
        cluster.waitActive();
        conf = cluster.getConfiguration(0);
        warehouse = "hdfs://localhost:" + cluster.getNameNodePort() + "/warehouse";
    }

    @AfterAll
    static void stopHdfs() throws Exception {
        if (cluster != null) {
            cluster.shutdown(true);
        }
        FileSystem.closeAll();
        if (baseDir != null && baseDir.exists()) {
            try (Stream<java.nio.file.Path> files = Files.walk(baseDir.toPath())) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }

    private static Catalog catalog() {
        return Catalog.open(warehouse, conf);
    }

    @Test
    void writeCommitAndTimeTravelOnHdfs() {
        FileStoreTable table = catalog()
                .createTable(
                        "db",
                        "orders",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "2")
                                .build());
        assertThat(table.fileIO().scheme()).isEqualTo("hdfs");
        assertThat(table.publisher().describe()).isEqualTo("rename without overwrite");

        Map<Long, Map<Long, List<Object>>> expectedAt = FiveCommits.write(table, commit -> {});
        // a fresh catalog (another client) sees the same table
        FiveCommits.assertTimeTravel(catalog().getTable("db", "orders"), expectedAt);
    }

    /**
     * The maintenance model of {@code MaintenanceModelTest} at a reduced size on HDFS: writes,
     * compactions, in-flight writers, snapshot and changelog expiration, tags, consumer reads,
     * rollback, partition expiration, orphan cleanup and clock moves, every retained snapshot, tag
     * and change checked after each step. Larger with {@code -Dstrata.test.iterations}.
     */
    @Test
    void maintenanceModelOnHdfs() throws Exception {
        Map<String, Integer> ran = new TreeMap<>();
        for (long seed = 1; seed <= TestTables.iterations(); seed++) {
            new MaintenanceModel(catalog(), "model" + seed, seed, null).run(30, ran);
        }
        assertThat(ran).as("operations that ran").containsKeys("append", "expire", "orphan clean");
    }

    /** Tags, expiration, orphan cleanup and rollback on HDFS, whose listings return qualified paths. */
    @Test
    void maintenanceOnHdfs() throws Exception {
        FileStoreTable table = catalog()
                .createTable(
                        "db",
                        "kept",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "2")
                                .option("write-only", "true")
                                .build());
        Map<Long, Map<Long, List<Object>>> expectedAt = FiveCommits.write(table, commit -> {});
        table.tags().create("two", Optional.of(2L), Optional.empty());
        table.copyWithOptions(Map.of("write-only", "false"))
                .newCompactor()
                .compact(CompactStrategy.FULL, "compactor", 1);
        ExpireResult expired = table.copyWithOptions(
                        Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                .newSnapshotExpiration()
                .expire();
        assertThat(expired.plan().snapshotsExpired()).isEqualTo(5);
        FileStoreTable reader = catalog().getTable("db", "kept");
        assertThat(TestTables.scan(reader.newReadBuilder().withTag("two")))
                .hasSize(expectedAt.get(2L).size());
        assertThat(TestTables.scan(reader)).hasSize(expectedAt.get(5L).size());

        FileSystem fs = table.paths().root().getFileSystem(conf);
        Path orphan = new Path(new Path(table.paths().root(), "bucket-0"), "data-orphan.parquet");
        try (var out = fs.create(orphan)) {
            out.write(1);
        }
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        fs.setTimes(orphan, twoDaysAgo, -1);
        OrphanCleanResult clean = reader.newOrphanFilesClean(Duration.ofDays(1)).clean();
        assertThat(clean.refused())
                .as("HDFS's qualified paths are inside the table")
                .isEmpty();
        assertThat(clean.deleted())
                .extracting(f -> new Path(f.path()).getName())
                .containsExactly(orphan.getName());
        assertThat(fs.exists(orphan)).isFalse();

        reader.newRollback().toTag("two");
        assertThat(TestTables.scan(catalog().getTable("db", "kept")))
                .hasSize(expectedAt.get(2L).size());
    }

    @Test
    void renamePublisherNeverOverwrites() throws Exception {
        FileStoreTable table = catalog()
                .createTable(
                        "db", "pub", Schema.newBuilder().column("id", "BIGINT").build());
        AtomicPublisher publisher = table.publisher();
        FileSystem fs = ((HadoopFileIO) table.fileIO()).fileSystem();
        Path dir = new Path(table.paths().root(), "race");
        fs.mkdirs(dir);
        int contenders = 3;
        ExecutorService pool = Executors.newFixedThreadPool(contenders);
        try {
            for (int round = 0; round < 5; round++) {
                Path target = new Path(dir, "file-" + round);
                CyclicBarrier go = new CyclicBarrier(contenders);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int i = 0; i < contenders; i++) {
                    byte[] content = ("contender-" + i).getBytes(StandardCharsets.UTF_8);
                    results.add(pool.submit(() -> {
                        go.await();
                        return publisher.publish(target, content);
                    }));
                }
                int winner = -1;
                for (int i = 0; i < contenders; i++) {
                    if (results.get(i).get(30, TimeUnit.SECONDS)) {
                        assertThat(winner)
                                .as("round %s: two publishers both won", round)
                                .isEqualTo(-1);
                        winner = i;
                    }
                }
                assertThat(winner).as("round %s: nobody won", round).isNotEqualTo(-1);
                assertThat(table.fileIO().readUtf8(target)).isEqualTo("contender-" + winner);
                // a later publisher does not replace it either
                assertThat(publisher.publish(target, "late".getBytes(StandardCharsets.UTF_8)))
                        .isFalse();
                assertThat(table.fileIO().readUtf8(target)).isEqualTo("contender-" + winner);
            }
        } finally {
            pool.shutdownNow();
        }
        for (FileStatus st : fs.listStatus(dir)) {
            assertThat(st.getPath().getName()).as("temporary file left behind").startsWith("file-");
        }
    }

    @Test
    void racingCommittersOnHdfsLoseNoCommit() throws Exception {
        catalog()
                .createTable(
                        "db",
                        "race",
                        Schema.newBuilder()
                                .column("p", "INT")
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("p", "id")
                                .partitionKeys("p")
                                .option("commit.max-retries", "100")
                                .option("commit.max-retry-wait", "200 ms")
                                .build());
        int committers = 2;
        int commits = 5;
        RacedCommits.race(() -> catalog().getTable("db", "race"), committers, commits, 90);
        RacedCommits.assertNoCommitLost(catalog().getTable("db", "race"), committers, commits);
    }
}
