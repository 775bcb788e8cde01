package io.strata.cli;

import java.io.PrintWriter;

/** A one-line progress indicator, shown only on an interactive terminal. */
final class Progress {
    private final PrintWriter err;
    private final String unit;
    private final long total;
    private final boolean enabled = System.console() != null;
    private final long start = System.nanoTime();

    Progress(PrintWriter err, String unit, long total) {
        this.err = err;
        this.unit = unit;
        this.total = total;
    }

    void update(long done, long rows) {
        if (!enabled) {
            return;
        }
        double s = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
        err.printf("\r%s %d/%d  %,d rows  %,.0f rows/s  %.1f s   ", unit, done, total, rows, rows / s, s);
        err.flush();
    }

    void done() {
        if (enabled) {
            err.println();
            err.flush();
        }
    }
}
