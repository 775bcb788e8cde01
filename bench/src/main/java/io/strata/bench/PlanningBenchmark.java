package io.strata.bench;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.TableCommit;
import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import io.strata.storage.read.Split;
import io.strata.storage.schema.Schema;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Planning cost of a large table: commits metadata for {@code --files} level-0 files (default
 * 100,000; the files themselves are not written, planning never opens them) in commits of
 * {@code --per-commit} files, then times {@code plan()} of the latest snapshot several times.
 * Shows that manifest compaction keeps the manifests of the base list few and planning
 * proportional to live files.
 */
public final class PlanningBenchmark {
    private PlanningBenchmark() {}

    public static void main(String[] args) throws Exception {
        int files = 100_000;
        int perCommit = 1_000;
        for (String a : args) {
            if (a.startsWith("--files=")) {
                files = Integer.parseInt(a.substring(8));
            } else if (a.startsWith("--per-commit=")) {
                perCommit = Integer.parseInt(a.substring(13));
            } else {
                throw new IllegalArgumentException("unknown argument " + a + " (known: --files=N --per-commit=N)");
            }
        }
        Path dir = Files.createTempDirectory("strata-planning-");
        try {
            FileStoreTable table = Catalog.open(dir.toString())
                    .createTable(
                            "bench",
                            "many",
                            Schema.newBuilder()
                                    .column("id", "BIGINT")
                                    .column("v", "STRING")
                                    .primaryKey("id")
                                    .option("bucket", "16")
                                    .build());
            long start = System.nanoTime();
            try (TableCommit commit = table.newCommit("planning")) {
                int made = 0;
                for (long c = 1; made < files; c++) {
                    List<CommitMessage> messages = new ArrayList<>();
                    for (int i = 0; i < perCommit && made < files; i++, made++) {
                        messages.add(CommitMessage.append(new Object[0], made % 16, 16, List.of(fakeFile(made))));
                    }
                    commit.commit(c, messages);
                }
            }
            double commitSeconds = (System.nanoTime() - start) / 1e9;
            int manifests = table.manifests()
                    .manifestList()
                    .read(table.snapshotManager().latest().orElseThrow().baseManifestList())
                    .size();
            System.out.printf(
                    Locale.ROOT,
                    "committed %d files in %.1f s; base manifest list holds %d manifests%n",
                    files,
                    commitSeconds,
                    manifests);
            for (int run = 1; run <= 5; run++) {
                long t0 = System.nanoTime();
                List<Split> splits = table.newReadBuilder().plan();
                long n = splits.stream().mapToLong(s -> s.files().size()).sum();
                System.out.printf(
                        Locale.ROOT,
                        "plan %d: %d splits, %d files in %.3f s%n",
                        run,
                        splits.size(),
                        n,
                        (System.nanoTime() - t0) / 1e9);
            }
        } finally {
            WorkloadBenchmark.deleteRecursively(dir);
        }
    }

    private static DataFileMeta fakeFile(int i) {
        return new DataFileMeta(
                "data-planning-" + i + ".parquet",
                8 << 20,
                50_000,
                100,
                new Object[] {(long) i * 1000},
                new Object[] {(long) i * 1000 + 999},
                i * 50_000L,
                i * 50_000L + 49_999,
                0,
                0,
                List.of(new ColumnStats(0, (long) i * 1000, (long) i * 1000 + 999, 0), new ColumnStats(1, "a", "z", 5)),
                System.currentTimeMillis(),
                FileSource.APPEND);
    }
}
