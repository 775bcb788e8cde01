package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.table.system.BucketsTable;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bucket with 200 overlapping level-0 runs (about 550 MB of rows before compression) compacts
 * to completion in a JVM with a 256 MB heap, and the result holds every live key once.
 *
 * <p>The merge is bounded by {@code sort-spill-memory} (64 MB here, {@code -Dspill.memory} to
 * change it), so the 200 runs' files (about 300 MB) are pre-merged through spill files. Honest
 * limit: with these file sizes the merge also fits in 256 MB with every run open
 * ({@code -Dspill.memory=1gb} passes too), so this test guards the end-to-end requirement, not the
 * mechanism; {@code BoundedMergeTest} asserts the bounds on what is open.
 */
class BoundedMemoryCompactionTest {
    static final int RUNS = 200;
    static final int ROWS_PER_RUN = 10_000;
    static final int KEYS = 100_000;

    @TempDir
    Path dir;

    @Test
    void twoHundredLevelZeroRunsCompactWithA256MbHeap() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(
                java,
                "-Xmx256m",
                "-XX:+ExitOnOutOfMemoryError",
                "-Djava.io.tmpdir=" + dir,
                "-Dspill.memory=" + System.getProperty("spill.memory", "64mb"),
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                dir.resolve("wh").toString());
        pb.redirectErrorStream(true);
        File log = dir.resolve("child.log").toFile();
        pb.redirectOutput(log);
        Process p = pb.start();
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).as("child finished").isTrue();
        String out = Files.readString(log.toPath(), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("runs before: " + RUNS).contains("runs after: 1");
    }

    /** Runs in the child JVM: builds the bucket, compacts it fully, checks the result. */
    public static final class Main {
        public static void main(String[] args) {
            FileStoreTable t = Catalog.open(args[0])
                    .createTable(
                            "db",
                            "wide",
                            Schema.newBuilder()
                                    .column("id", "BIGINT")
                                    .column("ts", "BIGINT")
                                    .column("payload", "STRING")
                                    .primaryKey("id")
                                    .option("write-only", "true")
                                    .option("write-buffer-size", "32 mb")
                                    .build());
            Random rnd = new Random(1);
            char[] chars = new char[250];
            try (TableWrite w = t.newWrite("w");
                    TableCommit c = t.newCommit("w")) {
                for (int r = 0; r < RUNS; r++) {
                    for (int i = 0; i < ROWS_PER_RUN; i++) {
                        for (int j = 0; j < chars.length; j++) {
                            chars[j] = (char) ('a' + rnd.nextInt(26));
                        }
                        w.write(GenericRow.insert(
                                (long) rnd.nextInt(KEYS), (long) r * ROWS_PER_RUN + i, new String(chars)));
                    }
                    c.commit(r + 1, w.prepareCommit());
                }
            }
            List<BucketsTable.BucketRow> before = BucketsTable.rows(t, null);
            System.out.println("runs before: " + before.get(0).sortedRuns);
            long liveBefore = count(t);
            FileStoreTable writable = t.copyWithOptions(
                    Map.of("write-only", "false", "sort-spill-memory", System.getProperty("spill.memory", "64mb")));
            writable.newCompactor().compact(CompactStrategy.FULL, "compactor", 1);
            List<BucketsTable.BucketRow> after = BucketsTable.rows(t, null);
            System.out.println("runs after: " + after.get(0).sortedRuns);
            long liveAfter = count(t);
            if (liveAfter != liveBefore || after.get(0).rows != liveAfter) {
                System.out.println("MISMATCH live before " + liveBefore + " after " + liveAfter + " rows in files "
                        + after.get(0).rows);
                System.exit(3);
            }
            System.out.println("max heap " + (Runtime.getRuntime().maxMemory() >> 20) + " MiB; ok");
        }

        private static long count(FileStoreTable t) {
            long n = 0;
            try (var it = t.newReadBuilder().withProjection("id").readAll()) {
                while (it.hasNext()) {
                    it.next();
                    n++;
                }
            }
            return n;
        }
    }
}
