package io.strata.bench;

import io.strata.cli.workload.WorkloadSchema;
import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import org.apache.paimon.data.BinaryString;

/**
 * Converts Strata rows of the workload table to Paimon rows: same row kind, same values, with
 * {@code String} as Paimon's {@link BinaryString}. BIGINT, INT and DOUBLE values are already
 * Paimon's internal classes ({@code Long}, {@code Integer}, {@code Double}).
 */
final class PaimonRows {
    private static final boolean[] IS_STRING = stringColumns();

    private PaimonRows() {}

    /** A new Paimon row; {@code row} must have the {@link WorkloadSchema} columns. */
    static org.apache.paimon.data.GenericRow toPaimon(GenericRow row) {
        org.apache.paimon.data.GenericRow out =
                new org.apache.paimon.data.GenericRow(kind(row.kind()), IS_STRING.length);
        for (int i = 0; i < IS_STRING.length; i++) {
            Object v = row.get(i);
            out.setField(i, IS_STRING[i] && v != null ? BinaryString.fromString((String) v) : v);
        }
        return out;
    }

    static org.apache.paimon.types.RowKind kind(RowKind kind) {
        switch (kind) {
            case INSERT:
                return org.apache.paimon.types.RowKind.INSERT;
            case UPDATE_BEFORE:
                return org.apache.paimon.types.RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER:
                return org.apache.paimon.types.RowKind.UPDATE_AFTER;
            case DELETE:
                return org.apache.paimon.types.RowKind.DELETE;
            default:
                throw new IllegalArgumentException("unknown row kind " + kind);
        }
    }

    private static boolean[] stringColumns() {
        boolean[] s = new boolean[WorkloadSchema.COLUMNS.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = WorkloadSchema.COLUMNS.get(i).type().equals("STRING");
        }
        return s;
    }
}
