package io.strata.bench;

/**
 * Scenario 2: a full compaction of every bucket and its commit, taking {@code nanos}. Its input
 * is every file of the snapshot before ({@code input.rows()} is the input row count), its output
 * every file of the snapshot after.
 */
public record CompactionResult(FileSummary input, FileSummary output, long nanos) {
    public double inputRowsPerSecond() {
        return input.rows() * 1e9 / nanos;
    }
}
