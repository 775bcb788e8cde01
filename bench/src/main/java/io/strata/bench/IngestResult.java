package io.strata.bench;

/** Scenario 1: {@code rows} written in {@code commits} commits in {@code nanos}, and the files left behind. */
public record IngestResult(long rows, int commits, long nanos, FileSummary files) {
    public double rowsPerSecond() {
        return rows * 1e9 / nanos;
    }
}
