package io.strata.storage.testutil;

import io.strata.storage.data.GenericRow;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.util.CloseableIterator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reading helpers for tests. */
public final class Rows {
    private Rows() {}

    /** Every row {@code rb} reads, in read order. */
    public static List<GenericRow> readAll(ReadBuilder rb) {
        List<GenericRow> out = new ArrayList<>();
        try (CloseableIterator<GenericRow> it = rb.readAll()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    /**
     * Rows of a table keyed by its single BIGINT key (field 0) mapped to the remaining fields;
     * fails on a duplicate key, which a primary-key read must never return.
     */
    public static Map<Long, List<Object>> byKey(List<GenericRow> rows) {
        Map<Long, List<Object>> out = new TreeMap<>();
        for (GenericRow r : rows) {
            List<Object> rest = new ArrayList<>();
            for (int i = 1; i < r.arity(); i++) {
                rest.add(r.get(i));
            }
            if (out.put((Long) r.get(0), rest) != null) {
                throw new AssertionError("key " + r.get(0) + " read twice: " + rows);
            }
        }
        return out;
    }

    /** An ordered map literal helper: k1, v1, k2, v2, ... (values are single-field lists). */
    public static Map<Long, List<Object>> expect(Object... kv) {
        Map<Long, List<Object>> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(((Number) kv[i]).longValue(), Arrays.asList(kv[i + 1]));
        }
        return new TreeMap<>(m);
    }
}
