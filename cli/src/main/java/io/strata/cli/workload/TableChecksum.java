package io.strata.cli.workload;

import io.strata.storage.data.GenericRow;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.util.CloseableIterator;

/** The {@code live_rows}/{@code checksum} check of WORKLOAD.md computed from what a table returns. */
public final class TableChecksum {
    private TableChecksum() {}

    /** Reads columns id and ts (both BIGINT) of every row the read returns. */
    public static WorkloadCheck of(ReadBuilder read) {
        WorkloadChecksum sum = new WorkloadChecksum();
        try (CloseableIterator<GenericRow> it = read.withProjection("id", "ts").readAll()) {
            while (it.hasNext()) {
                GenericRow r = it.next();
                if (!(r.get(0) instanceof Long) || !(r.get(1) instanceof Long)) {
                    throw new IllegalArgumentException("checksum needs BIGINT columns id and ts with values, got " + r);
                }
                sum.add((Long) r.get(0), (Long) r.get(1));
            }
        }
        return sum.result();
    }
}
