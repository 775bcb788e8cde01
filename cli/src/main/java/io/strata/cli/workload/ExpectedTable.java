package io.strata.cli.workload;

import io.strata.storage.data.GenericRow;
import java.util.Arrays;

/**
 * A model of the table the workload leaves behind under merge engine deduplicate: per key the
 * last written ts, and a retracting row ({@code -D}, {@code -U}) removes the key. Fed every row
 * of commits {@code 0..n-1} in order, {@link #check()} is what a table must show after commit
 * {@code n-1}. Memory: one {@code long} per key of the key space.
 */
public final class ExpectedTable {
    /** The workload's ts are row numbers, so never negative. */
    private static final long ABSENT = -1;

    private final long[] lastTs;
    private final WorkloadChecksum checksum = new WorkloadChecksum();

    /** @param keySpace ids are in {@code [0, keySpace)}, at most {@code Integer.MAX_VALUE - 8} */
    public ExpectedTable(long keySpace) {
        if (keySpace <= 0 || keySpace > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("key space out of range: " + keySpace);
        }
        this.lastTs = new long[(int) keySpace];
        Arrays.fill(lastTs, ABSENT);
    }

    /** The check the remaining commits of {@code workload} leave: consumes them. */
    public static WorkloadCheck of(StandardWorkload workload) {
        ExpectedTable model = new ExpectedTable(workload.keySpace());
        for (int c = workload.nextCommit(); c < workload.commits(); c++) {
            workload.forEachRowOfCommit(c, model::apply);
        }
        return model.check();
    }

    /** Applies one workload row: id in column {@link WorkloadSchema#ID}, ts in {@link WorkloadSchema#TS}. */
    public void apply(GenericRow row) {
        long id = (Long) row.get(WorkloadSchema.ID);
        if (row.kind().isRetract()) {
            delete(id);
        } else {
            upsert(id, (Long) row.get(WorkloadSchema.TS));
        }
    }

    /** Key {@code id} now holds {@code ts} (>= 0), replacing what it held. */
    public void upsert(long id, long ts) {
        if (ts < 0) {
            throw new IllegalArgumentException("ts must be >= 0, got " + ts);
        }
        int k = Math.toIntExact(id);
        if (lastTs[k] != ABSENT) {
            checksum.remove(id, lastTs[k]);
        }
        lastTs[k] = ts;
        checksum.add(id, ts);
    }

    /** Key {@code id} is gone; deleting an absent key changes nothing, as in the table. */
    public void delete(long id) {
        int k = Math.toIntExact(id);
        if (lastTs[k] != ABSENT) {
            checksum.remove(id, lastTs[k]);
            lastTs[k] = ABSENT;
        }
    }

    public WorkloadCheck check() {
        return checksum.result();
    }
}
