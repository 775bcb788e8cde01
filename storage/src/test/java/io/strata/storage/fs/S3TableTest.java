package io.strata.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.GenericRow;
import io.strata.storage.maintenance.ExpireResult;
import io.strata.storage.maintenance.OrphanFilesClean;
import io.strata.storage.maintenance.TableFile;
import io.strata.storage.schema.Schema;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.CommitterProcess;
import io.strata.storage.testutil.ConditionalPutProxy;
import io.strata.storage.testutil.S3ProxyServer;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BulkDelete;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The write/commit/scan flow on {@code s3a://}: S3A against s3proxy on 127.0.0.1 (a child JVM),
 * commit locks on H2 and on an embedded PostgreSQL, all started here. s3proxy ignores {@code
 * If-None-Match} on PUT, so conditional create is probed and refused there, and every commit
 * takes the JDBC lock, configured warehouse-wide as {@code strata.commit.lock.jdbc.url}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class S3TableTest {
    private static S3ProxyServer s3;
    private static EmbeddedPostgres postgres;
    private static File dir;

    @BeforeAll
    static void start() throws Exception {
        dir = new File("target", "s3-" + UUID.randomUUID()).getAbsoluteFile();
        s3 = S3ProxyServer.start(dir);
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static String h2() {
        return "jdbc:h2:mem:s3locks-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    private static String postgresUrl() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    /** S3A settings plus the warehouse-wide JDBC lock. */
    private static Configuration conf(String lockUrl) {
        Configuration c = s3.configuration();
        c.set("strata.commit.lock.jdbc.url", lockUrl);
        return c;
    }

    private static Schema raceSchema() {
        return Schema.newBuilder()
                .column("p", "INT")
                .column("id", "BIGINT")
                .column("v", "STRING")
                .primaryKey("p", "id")
                .partitionKeys("p")
                .option("bucket", "1")
                .option("write-only", "true")
                .option("commit.max-retries", "100")
                .option("commit.max-retry-wait", "200 ms")
                .build();
    }

    @Test
    void s3proxyIgnoresIfNoneMatchSoConditionalCreateIsRefusedNamingTheWarehouse() throws Exception {
        String warehouse = s3.uri("unlocked");
        FileIO io = FileIO.forWarehouse(warehouse, s3.configuration());
        FileSystem fs = ((HadoopFileIO) io).fileSystem();
        Path root = new Path(warehouse);
        assertThat(ConditionalCreatePublisher.offered(fs, root))
                .as("hadoop-aws 3.4.2 offers conditional create")
                .isTrue();
        // the store's behaviour, shown directly: a second conditional create of one key succeeds and overwrites
        ConditionalCreatePublisher conditional = new ConditionalCreatePublisher(fs);
        Path key = new Path(root, "twice");
        assertThat(conditional.publish(key, "first".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(conditional.publish(key, "second".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(io.readUtf8(key)).isEqualTo("second");
        assertThat(conditional.honoured(root)).isFalse();
        io.delete(key);

        assertThatThrownBy(() -> Catalog.open(warehouse, s3.configuration()).createTable("db", "t", raceSchema()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("warehouse " + warehouse)
                .hasMessageContaining("does not honour")
                .hasMessageContaining("commit.lock.jdbc.url");
        assertThat(io.list(root))
                .as("probe objects are removed")
                .noneMatch(e -> e.path().getName().startsWith("."));
        assertThat(Catalog.open(warehouse, s3.configuration()).tableExists("db", "t"))
                .isFalse();
    }

    /**
     * The success path of conditional create, where the store honours If-None-Match (as AWS S3
     * does): s3proxy behind {@link ConditionalPutProxy}. No lock is configured: committers race
     * on the store's 412 alone.
     */
    @Test
    void whereTheStoreHonoursIfNoneMatchCommittersRaceWithoutALock() throws Exception {
        try (ConditionalPutProxy proxy = new ConditionalPutProxy(s3, s3.blobs())) {
            Configuration conf = new Configuration();
            s3.hadoopConf(proxy.endpoint()).forEach(conf::set);
            // Hadoop caches file systems by bucket: this one must go through the proxy
            conf.setBoolean("fs.s3a.impl.disable.cache", true);
            String warehouse = s3.uri("conditional");
            FileIO io = FileIO.forWarehouse(warehouse, conf);
            FileSystem fs = ((HadoopFileIO) io).fileSystem();
            try {
                ConditionalCreatePublisher conditional = new ConditionalCreatePublisher(fs);
                Path key = new Path(warehouse, "once");
                assertThat(conditional.publish(key, "first".getBytes(StandardCharsets.UTF_8)))
                        .isTrue();
                assertThat(conditional.publish(key, "second".getBytes(StandardCharsets.UTF_8)))
                        .isFalse();
                assertThat(proxy.refused())
                        .as("refused by the store (412), not by a client-side check")
                        .isEqualTo(1);
                assertThat(io.readUtf8(key)).isEqualTo("first");
                io.delete(key);

                Catalog catalog = Catalog.open(warehouse, io);
                catalog.createTable("db", "race", raceSchema());
                assertThat(proxy.refused())
                        .as("the probe's second create was refused by the store")
                        .isEqualTo(2);
                assertThat(catalog.getTable("db", "race").publisher().describe())
                        .contains("conditional create");
                int committers = 3;
                int commits = 3;
                RacedCommits.race(() -> catalog.getTable("db", "race"), committers, commits, 150);
                RacedCommits.assertNoCommitLost(catalog.getTable("db", "race"), committers, commits);
            } finally {
                fs.close();
            }
        }
    }

    @Test
    void writeCommitTimeTravelAndIncrementalReadOnS3a() throws Exception {
        String warehouse = s3.uri("flow");
        Configuration conf = conf(h2());
        FileStoreTable table = Catalog.open(warehouse, conf)
                .createTable(
                        "db",
                        "orders",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "2")
                                .build());
        assertThat(table.fileIO().scheme()).isEqualTo("s3a");
        assertThat(table.publisher().describe()).contains(JdbcCommitLock.class.getName());

        Map<Long, Map<Long, List<Object>>> expectedAt = FiveCommits.write(
                table,
                commit -> assertThat(readHint(table))
                        .as("LATEST after commit %s", commit)
                        .isEqualTo(Long.toString(commit)));
        FileStoreTable reader = Catalog.open(warehouse, conf).getTable("db", "orders");
        FiveCommits.assertTimeTravel(reader, expectedAt);
        int changes = 0;
        try (CloseableIterator<GenericRow> it = reader.newIncrementalRead().read(0, 5)) {
            while (it.hasNext()) {
                it.next();
                changes++;
            }
        }
        assertThat(changes)
                .as("rows of the deltas (pre-merged per commit)")
                .isEqualTo(FiveCommits.COMMITS * FiveCommits.ROWS_PER_COMMIT);
        int second = 0;
        try (CloseableIterator<GenericRow> it = reader.newIncrementalRead().read(1, 2)) {
            while (it.hasNext()) {
                it.next();
                second++;
            }
        }
        assertThat(second).isEqualTo(FiveCommits.ROWS_PER_COMMIT);
    }

    /** Expiration on s3a deletes through S3A's bulk delete (a page of objects per request) and loses nothing. */
    @Test
    void expirationOnS3aDeletesInBulkAndKeepsWhatIsRetained() throws Exception {
        String warehouse = s3.uri("expire");
        Configuration conf = conf(h2());
        FileStoreTable table = Catalog.open(warehouse, conf)
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .column("v", "STRING")
                                .primaryKey("id")
                                .option("bucket", "2")
                                .option("write-only", "true")
                                .build());
        Map<Long, Map<Long, List<Object>>> expectedAt = FiveCommits.write(table, commit -> {});
        table.copyWithOptions(Map.of("write-only", "false"))
                .newCompactor()
                .compact(CompactStrategy.FULL, "compactor", 1);
        FileSystem fs = table.paths().root().getFileSystem(conf);
        try (BulkDelete bulk = fs.createBulkDelete(table.paths().root())) {
            assertThat(bulk.pageSize()).as("S3A deletes pages of objects").isGreaterThan(1);
        }

        ExpireResult r = table.copyWithOptions(
                        Map.of("snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s"))
                .newSnapshotExpiration()
                .expire();

        assertThat(r.plan().snapshotsExpired()).isEqualTo(5);
        assertThat(r.deletedCounts().get(TableFile.Kind.DATA))
                .as("the appended files the compaction replaced")
                .isPositive();
        for (TableFile f : r.deleted()) {
            assertThat(table.fileIO().exists(new Path(f.path()))).as(f.path()).isFalse();
        }
        FileStoreTable reader = Catalog.open(warehouse, conf).getTable("db", "t");
        assertThat(TestTables.scan(reader)).hasSize(expectedAt.get(5L).size());
        // no writer runs: a file of any age that nothing references is one expiration left behind
        assertThat(OrphanFilesClean.olderThanAllowingRecent(reader.context(), Duration.ZERO)
                        .dryRun()
                        .orphans())
                .as("files no retained snapshot references, left by expiration")
                .isEmpty();
    }

    /**
     * A consumer's position is replaced in place while expiration lists consumers: S3A pins the
     * object's ETag when a read opens it and refuses (412) to go on once it was replaced; the read
     * starts over and returns one whole version, never an error or a mix.
     */
    @Test
    void aConsumerPositionReplacedWhileItIsReadIsReadWhole() throws Exception {
        FileStoreTable table = Catalog.open(s3.uri("consumer-race"), conf(h2()))
                .createTable(
                        "db",
                        "t",
                        Schema.newBuilder()
                                .column("id", "BIGINT")
                                .primaryKey("id")
                                .option("bucket", "1")
                                .build());
        ConsumerManager consumers = new ConsumerManager(table.fileIO(), table.paths(), "db.t");
        consumers.record("follower", 1, 1);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong recorded = new java.util.concurrent.atomic.AtomicLong(1);
        Thread recorder = new Thread(() -> {
            for (long next = 2; !stop.get(); next++) {
                consumers.record("follower", next, next);
                recorded.set(next);
                try {
                    Thread.sleep(10); // a busy consumer: a new position every few milliseconds
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        recorder.start();
        long reads = 0;
        long last = 0;
        try {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
            while (System.nanoTime() < until) {
                long floor = recorded.get();
                ConsumerManager.Consumer c = consumers.list().get(0);
                assertThat(c.nextSnapshot()).as("a whole, current version").isGreaterThanOrEqualTo(floor);
                assertThat(c.updatedMillis()).isEqualTo(c.nextSnapshot());
                assertThat(c.nextSnapshot()).as("positions only move forward").isGreaterThanOrEqualTo(last);
                last = c.nextSnapshot();
                reads++;
            }
        } finally {
            stop.set(true);
            recorder.join();
        }
        assertThat(reads).isPositive();
        assertThat(recorded.get())
                .as("the recorder replaced the file many times")
                .isGreaterThan(10);
    }

    private static String readHint(FileStoreTable table) {
        try {
            return table.fileIO().readUtf8(table.paths().latestHint());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void racingCommittersOnS3aLoseNoCommit(String db) throws Exception {
        String warehouse = s3.uri("race-" + db);
        Configuration conf = conf(db.equals("h2") ? h2() : postgresUrl());
        Catalog.open(warehouse, conf).createTable("db", "race", raceSchema());
        int committers = 3;
        int commits = 3;
        RacedCommits.race(() -> Catalog.open(warehouse, conf).getTable("db", "race"), committers, commits, 150);
        FileStoreTable raced = Catalog.open(warehouse, conf).getTable("db", "race");
        RacedCommits.assertNoCommitLost(raced, committers, commits);
        assertThat(OrphanFilesClean.olderThanAllowingRecent(raced.context(), Duration.ZERO)
                        .dryRun()
                        .orphans())
                .as("the attempts that lost the race removed what they wrote")
                .isEmpty();
    }

    /** Two committer JVMs and this one, all on the PostgreSQL lock. */
    @Test
    void committersInThreeProcessesShareThePostgresLock() throws Exception {
        String warehouse = s3.uri("processes");
        String lockUrl = postgresUrl();
        Catalog.open(warehouse, conf(lockUrl)).createTable("db", "race", raceSchema());
        int commits = 3;
        List<String> settings = new ArrayList<>();
        s3.hadoopConf().forEach((k, v) -> settings.add(k + "=" + v));
        settings.add("strata.commit.lock.jdbc.url=" + lockUrl);
        List<Process> children = new ArrayList<>();
        List<File> logs = new ArrayList<>();
        for (int p = 1; p <= 2; p++) {
            File log = new File(dir, "committer-" + p + ".log");
            List<String> args = new ArrayList<>(
                    List.of(warehouse, "race", "committer-" + p, String.valueOf(p), String.valueOf(commits)));
            args.addAll(settings);
            children.add(CommitterProcess.start(log, args));
            logs.add(log);
        }
        FileStoreTable table = Catalog.open(warehouse, conf(lockUrl)).getTable("db", "race");
        try (TableWrite w = table.newWrite("committer-0");
                TableCommit c = table.newCommit("committer-0")) {
            for (int n = 1; n <= commits; n++) {
                w.write(GenericRow.insert(0, (long) n, "committer-0#" + n));
                assertThat(c.commit(n, w.prepareCommit())).hasSize(1);
            }
        }
        for (int i = 0; i < children.size(); i++) {
            CommitterProcess.await(children.get(i), logs.get(i), 150);
        }
        RacedCommits.assertNoCommitLost(Catalog.open(warehouse, conf(lockUrl)).getTable("db", "race"), 3, commits);
    }
}
