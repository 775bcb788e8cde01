package io.strata.cli.workload;

/**
 * Accumulates the {@code live_rows} / {@code checksum} check of WORKLOAD.md over (id, ts) pairs:
 * a count and a wrapping sum of {@code mix(id * 0x9E3779B97F4A7C15 + ts)}. The sum does not depend
 * on the order of the pairs, so a scan of a table can feed each live row as it comes (one
 * {@link #add} per live key) and compare its {@link #result()} with {@link ExpectedTable}'s.
 * Not thread-safe.
 */
public final class WorkloadChecksum {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private long rows;
    private long sum;

    /** The finalizer of WORKLOAD.md (MurmurHash3's fmix64 without its second round). */
    public static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xFF51AFD7ED558CCDL;
        return z ^ (z >>> 33);
    }

    /** What one live key with last written {@code ts} contributes to the checksum. */
    public static long term(long id, long ts) {
        return mix(id * GOLDEN + ts);
    }

    /** Counts one live row. */
    public void add(long id, long ts) {
        rows++;
        sum += term(id, ts);
    }

    /** Takes back an earlier {@code add(id, ts)}: a model uses it when a key is overwritten or deleted. */
    public void remove(long id, long ts) {
        rows--;
        sum -= term(id, ts);
    }

    public WorkloadCheck result() {
        return new WorkloadCheck(rows, sum);
    }
}
