package io.strata.cli.workload;

import io.strata.storage.data.GenericRow;
import java.util.function.Consumer;

/**
 * The standard workload of shared/bench/WORKLOAD.md: {@code commits} transactions of
 * {@code rowsPerCommit} rows each over the {@link WorkloadSchema} table, every value drawn from
 * one {@link SplitMix64} in the exact order the document gives, so that any consumer of the same
 * parameters sees the same rows.
 *
 * <p>The stream is produced commit by commit and never held in memory; the only state is the
 * live-key set (a {@code long} per live key and a bit per key of the key space). Commits can be
 * produced only once each and in order; a fresh instance with the same parameters starts over.
 * Not thread-safe.
 */
public final class StandardWorkload {
    private static final char[] ALPHABET =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final int NAME_LENGTH = 16;
    private static final int PAYLOAD_LENGTH = 64;
    private static final int QTY_BOUND = 1000;
    private static final double PRICE_SCALE = 1000.0;

    private final int commits;
    private final int rowsPerCommit;
    private final long keySpace;
    private final double deleteFraction;
    private final long seed;
    private final SplitMix64 random;
    private final LiveKeySet live;
    private int nextCommit;

    /**
     * @param commits        C, at least 0
     * @param rowsPerCommit  R, at least 1
     * @param keySpace       K: upserted ids are in {@code [0, K)}; {@code 1 <= K <= Integer.MAX_VALUE}
     * @param deleteFraction f in {@code [0, 1]}: the share of rows that are deletes
     * @param seed           the generator's initial state
     */
    public StandardWorkload(int commits, int rowsPerCommit, long keySpace, double deleteFraction, long seed) {
        if (commits < 0 || rowsPerCommit < 1) {
            throw new IllegalArgumentException(
                    "need commits >= 0 and rowsPerCommit >= 1, got " + commits + " and " + rowsPerCommit);
        }
        if (!(deleteFraction >= 0.0 && deleteFraction <= 1.0)) {
            throw new IllegalArgumentException("deleteFraction must be in [0, 1], got " + deleteFraction);
        }
        this.commits = commits;
        this.rowsPerCommit = rowsPerCommit;
        this.keySpace = keySpace;
        this.deleteFraction = deleteFraction;
        this.seed = seed;
        this.random = new SplitMix64(seed);
        this.live = new LiveKeySet(keySpace, (int) Math.min(keySpace, totalRows()));
    }

    /** The first table row of WORKLOAD.md: 10 x 200,000 rows, K = 1,000,000, f = 0.05, seed 42. */
    public static StandardWorkload large() {
        return new StandardWorkload(10, 200_000, 1_000_000, 0.05, 42);
    }

    /** The second table row of WORKLOAD.md: 5 x 20,000 rows, K = 50,000, f = 0.05, seed 42. */
    public static StandardWorkload small() {
        return new StandardWorkload(5, 20_000, 50_000, 0.05, 42);
    }

    /** A fresh instance with the same parameters, positioned before commit 0. */
    public StandardWorkload restart() {
        return new StandardWorkload(commits, rowsPerCommit, keySpace, deleteFraction, seed);
    }

    public int commits() {
        return commits;
    }

    public int rowsPerCommit() {
        return rowsPerCommit;
    }

    public long keySpace() {
        return keySpace;
    }

    public double deleteFraction() {
        return deleteFraction;
    }

    public long seed() {
        return seed;
    }

    public long totalRows() {
        return (long) commits * rowsPerCommit;
    }

    /** The commit the next {@link #forEachRowOfCommit} call must ask for; {@code commits()} once all are out. */
    public int nextCommit() {
        return nextCommit;
    }

    /** The number of live keys after the commits produced so far: the expected {@code live_rows} at the end. */
    public int liveCount() {
        return live.size();
    }

    /**
     * Hands the {@code rowsPerCommit} rows of commit {@code c} to {@code sink}, in order. Each row
     * is a new {@link GenericRow} with the six {@link WorkloadSchema} columns: an upsert is
     * {@code INSERT} with every value set, a delete is {@code DELETE} with only the id set.
     *
     * @throws IllegalStateException unless {@code c == nextCommit()} and {@code c < commits()}
     */
    public void forEachRowOfCommit(int c, Consumer<? super GenericRow> sink) {
        if (c != nextCommit || c >= commits) {
            throw new IllegalStateException(
                    "commit " + c + " asked for, but commits are produced once each, in order: the next is "
                            + nextCommit + " of " + commits);
        }
        long firstRow = (long) c * rowsPerCommit;
        for (int j = 0; j < rowsPerCommit; j++) {
            sink.accept(row(j, firstRow + j));
        }
        nextCommit++;
    }

    private GenericRow row(int j, long globalRow) {
        if (isDeleteSlot(j) && live.size() > 0) {
            long key = live.removeAt((int) random.below(live.size()));
            return GenericRow.delete(key, null, null, null, null, null);
        }
        // The draw order below is the workload definition: id, name, price, qty, payload.
        long id = random.below(keySpace);
        String name = randomString(NAME_LENGTH);
        double price = (random.next() >>> 11) * 0x1.0p-53 * PRICE_SCALE;
        int qty = (int) random.below(QTY_BOUND);
        String payload = randomString(PAYLOAD_LENGTH);
        live.addIfAbsent(id);
        return GenericRow.insert(id, name, price, qty, globalRow, payload);
    }

    /** Row j of a commit is a delete slot when floor((j+1)f) > floor(jf), in IEEE doubles. */
    private boolean isDeleteSlot(int j) {
        return Math.floor((j + 1) * deleteFraction) > Math.floor(j * deleteFraction);
    }

    private String randomString(int length) {
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = ALPHABET[(int) random.below(ALPHABET.length)];
        }
        return new String(chars);
    }

    @Override
    public String toString() {
        return "StandardWorkload{C=" + commits + ", R=" + rowsPerCommit + ", K=" + keySpace + ", f=" + deleteFraction
                + ", seed=" + seed + "}";
    }
}
