package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.cli.workload.WorkloadSchema;
import io.strata.storage.data.GenericRow;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Scenario 6, repeated full-compaction changelog: a table with {@code changelog-producer =
 * full-compaction}, each workload commit ingested write-only and followed by a full compaction of
 * every bucket. Times the compactions (summed) and checks each one's changelog row count against
 * what the changes since the previous full compaction call for ({@link ChangeCounter}): a key that
 * got no record must cost no rows, so the count follows the rows written, not the table size.
 */
final class RepeatedFullChangelog {
    private static final Map<String, String> OPTIONS = Map.of("changelog-producer", "full-compaction");

    private RepeatedFullChangelog() {}

    /** One engine's figures: compaction time summed, and per compaction the changelog rows emitted and expected. */
    record Result(long nanos, long[] rows, long[] expected) {
        long totalRows() {
            return Arrays.stream(rows).sum();
        }

        long totalExpected() {
            return Arrays.stream(expected).sum();
        }

        /** Compactions whose changelog row count differs from the expected one. */
        int mismatches() {
            int n = 0;
            for (int i = 0; i < rows.length; i++) {
                n += rows[i] == expected[i] ? 0 : 1;
            }
            return n;
        }
    }

    static Result strata(Path warehouse, StandardWorkload workload, WorkloadCheck expected) {
        StrataPeer peer = StrataPeer.createTable(warehouse, "full_repeated", OPTIONS);
        ChangeCounter counter = new ChangeCounter();
        long[] rows = new long[workload.commits()];
        long[] owed = new long[workload.commits()];
        long[] nanos = new long[1];
        peer.ingest(workload, counter::observe, c -> {
            long before = peer.changelogRows();
            nanos[0] += peer.fullCompaction().nanos();
            rows[c] = peer.changelogRows() - before;
            owed[c] = counter.fullCompaction();
        });
        WorkloadBenchmark.verify("Strata repeated full-compaction-changelog table", peer.check(), expected);
        return new Result(nanos[0], rows, owed);
    }

    static Result paimon(Path warehouse, StandardWorkload workload, WorkloadCheck expected) throws Exception {
        try (PaimonPeer peer = PaimonPeer.createTable(warehouse, "full_repeated", OPTIONS)) {
            ChangeCounter counter = new ChangeCounter();
            long[] rows = new long[workload.commits()];
            long[] owed = new long[workload.commits()];
            long nanos = 0;
            for (int c = workload.nextCommit(); c < workload.commits(); c++) {
                peer.ingestOneCommit(workload, counter::observe);
                long before = peer.changelogRows();
                nanos += peer.fullCompaction().nanos();
                rows[c] = peer.changelogRows() - before;
                owed[c] = counter.fullCompaction();
            }
            WorkloadBenchmark.verify("Paimon repeated full-compaction-changelog table", peer.check(), expected);
            return new Result(nanos, rows, owed);
        }
    }

    /**
     * The changelog rows a full compaction owes on the workload table (deduplicate): per key, from
     * its state at the previous full compaction to now, one row when it appeared (+I) or
     * disappeared (-D), two when it was written and exists on both sides (-U, +U; every upsert
     * carries a new ts, so no write leaves the row equal), none when it got no record.
     */
    static final class ChangeCounter {
        private final Map<Long, Long> now = new HashMap<>();
        private Map<Long, Long> atLastFullCompaction = new HashMap<>();

        void observe(GenericRow row) {
            long id = (Long) row.get(WorkloadSchema.ID);
            if (row.kind().isRetract()) {
                now.remove(id);
            } else {
                now.put(id, (Long) row.get(WorkloadSchema.TS));
            }
        }

        /** The rows owed by a full compaction now; the next one counts from here. */
        long fullCompaction() {
            long owed = 0;
            for (Map.Entry<Long, Long> e : now.entrySet()) {
                Long before = atLastFullCompaction.get(e.getKey());
                owed += before == null ? 1 : before.equals(e.getValue()) ? 0 : 2;
            }
            for (Long id : atLastFullCompaction.keySet()) {
                owed += now.containsKey(id) ? 0 : 1;
            }
            atLastFullCompaction = new HashMap<>(now);
            return owed;
        }
    }
}
