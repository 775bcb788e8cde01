package io.strata.cli.workload;

/** The outcome of the workload check: {@code live_rows} and {@code checksum} of WORKLOAD.md. */
public record WorkloadCheck(long liveRows, long checksum) {
    @Override
    public String toString() {
        return "live_rows=" + liveRows + ", checksum=" + checksum;
    }
}
