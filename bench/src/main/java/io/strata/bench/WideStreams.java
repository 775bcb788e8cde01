package io.strata.bench;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadChecksum;
import io.strata.cli.workload.WorkloadSchema;
import io.strata.cli.workload.WorkloadSchema.Column;
import io.strata.storage.data.GenericRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Issue 17's wide-table workload: the standard workload's upserts (WORKLOAD.md) routed to four
 * CDC streams, each updating its own group of columns of the same keys of a partial-update table:
 * the upsert of global row {@code g} goes to stream {@code k = g mod 4}, which sets group
 * {@code k}'s columns {@code name_k, price_k, qty_k, payload_k} to the row's values, with the
 * row's {@code ts = g} as its ordering value. So every stream row carries one standard row's
 * values, and the table has 17 or 21 columns. Stream {@code k} arrives {@code k} commits late
 * (its rows of workload commit {@code c} are written in table commit {@code c + k}), and the last
 * stream is also out of order within itself: it delivers the workload's commits in swapped pairs
 * (1, 0, 3, 2, ...), as a source replaying a late batch does. So a key's rows interleave out of
 * order across commits and only the ordering values put them right; in particular a stale group
 * 3 often meets a fresh value of another group of its key in one commit, the case where an engine
 * that orders a pre-merged row by its highest ordering value lets the stale values win. Deletes
 * of the standard stream are left out (partial-update has no delete here); their draws still
 * happen, so the upserts are exactly the standard workload's.
 *
 * <p>Two ways to order, one table layout each:
 * <ul>
 *   <li>{@link Ordering#SEQUENCE_GROUPS}: each group also has {@code ts_k}, with
 *       {@code fields.ts_k.sequence-group=name_k,price_k,qty_k,payload_k}.</li>
 *   <li>{@link Ordering#SEQUENCE_FIELD}: one {@code ts} column, {@code sequence.field=ts}; a
 *       stream row sets its group and {@code ts}.</li>
 * </ul>
 * Each stream regenerates the workload from its seed (the generator is deterministic), so at most
 * one commit of a stream's rows is held in memory. The expected table ({@link #expected()}):
 * every key ever upserted; each group from the key's last upsert routed to its stream (nulls if
 * none), with that upsert's {@code ts} (under sequence.field the highest of the key's).
 */
final class WideStreams {
    static final int STREAMS = 4;
    /** The workload row positions a group holds, in column order. */
    private static final int[] SOURCE = {
        WorkloadSchema.NAME, WorkloadSchema.PRICE, WorkloadSchema.QTY, WorkloadSchema.PAYLOAD
    };

    enum Ordering {
        SEQUENCE_GROUPS,
        SEQUENCE_FIELD;

        static Ordering parse(String s) {
            switch (s) {
                case "groups":
                    return SEQUENCE_GROUPS;
                case "sequence-field":
                    return SEQUENCE_FIELD;
                default:
                    throw new IllegalArgumentException("--ordering: '" + s + "' (known: groups, sequence-field)");
            }
        }
    }

    private final StandardWorkload workload;
    private final Ordering ordering;
    /** Columns per group: the values, and under groups the group's ordering column after them. */
    private final int groupWidth;

    WideStreams(StandardWorkload workload, Ordering ordering) {
        this.workload = workload;
        this.ordering = ordering;
        this.groupWidth = SOURCE.length + (ordering == Ordering.SEQUENCE_GROUPS ? 1 : 0);
    }

    Ordering ordering() {
        return ordering;
    }

    List<Column> columns() {
        List<Column> cs = new ArrayList<>();
        cs.add(WorkloadSchema.COLUMNS.get(WorkloadSchema.ID));
        for (int k = 0; k < STREAMS; k++) {
            for (int src : SOURCE) {
                Column c = WorkloadSchema.COLUMNS.get(src);
                cs.add(new Column(c.name() + "_" + k, c.type(), true));
            }
            if (ordering == Ordering.SEQUENCE_GROUPS) {
                cs.add(new Column("ts_" + k, "BIGINT", true));
            }
        }
        if (ordering == Ordering.SEQUENCE_FIELD) {
            cs.add(WorkloadSchema.COLUMNS.get(WorkloadSchema.TS));
        }
        return Collections.unmodifiableList(cs);
    }

    /** The table options, the same keys for Strata and Paimon: the workload's, as partial-update, and the ordering. */
    Map<String, String> options() {
        Map<String, String> m = new LinkedHashMap<>(WorkloadSchema.TABLE_OPTIONS);
        m.put("merge-engine", "partial-update");
        if (ordering == Ordering.SEQUENCE_GROUPS) {
            List<Column> cs = columns();
            for (int k = 0; k < STREAMS; k++) {
                List<String> group = new ArrayList<>();
                for (int i = 0; i < SOURCE.length; i++) {
                    group.add(cs.get(firstOf(k) + i).name());
                }
                m.put("fields.ts_" + k + ".sequence-group", String.join(",", group));
            }
        } else {
            m.put("sequence.field", "ts");
        }
        return m;
    }

    /** The row position of group {@code k}'s first column. */
    private int firstOf(int k) {
        return 1 + k * groupWidth;
    }

    /** Table commits: the workload's, plus one for each commit of lag of the last stream. */
    int commits() {
        return workload.commits() + STREAMS - 1;
    }

    /**
     * Hands each table commit's rows to {@code commit}, in order: table commit {@code t} holds
     * stream {@code k}'s rows of workload commit {@code t - k}, stream by stream.
     */
    void forEachCommit(Consumer<List<GenericRow>> commit) {
        Stream[] streams = new Stream[STREAMS];
        for (int k = 0; k < STREAMS; k++) {
            streams[k] = new Stream(k, workload.restart(), columns().size());
        }
        for (int t = 0; t < commits(); t++) {
            List<GenericRow> rows = new ArrayList<>();
            for (int k = 0; k < STREAMS; k++) {
                int slot = t - k;
                if (slot >= 0 && slot < workload.commits()) {
                    rows.addAll(streams[k].rowsOf(k == STREAMS - 1 ? swappedPair(slot) : slot));
                }
            }
            commit.accept(rows);
        }
    }

    /** The workload commit the last stream delivers in {@code slot}: pairs swapped, a lone last commit in place. */
    private int swappedPair(int slot) {
        int c = slot ^ 1;
        return c < workload.commits() ? c : slot;
    }

    /**
     * One stream's rows, generated commit by commit; a commit generated ahead of its delivery (the
     * swapped pairs) is held until asked for, so at most one commit's rows of a stream are in memory.
     */
    private final class Stream {
        private final int k;
        private final StandardWorkload source;
        private final int width;
        private final Map<Integer, List<GenericRow>> ahead = new HashMap<>();

        Stream(int k, StandardWorkload source, int width) {
            this.k = k;
            this.source = source;
            this.width = width;
        }

        List<GenericRow> rowsOf(int c) {
            while (source.nextCommit() <= c) {
                int next = source.nextCommit();
                List<GenericRow> rows = new ArrayList<>();
                source.forEachRowOfCommit(next, row -> {
                    if (!row.kind().isRetract() && streamOf(row) == k) {
                        rows.add(streamRow(k, row, width));
                    }
                });
                ahead.put(next, rows);
            }
            List<GenericRow> rows = ahead.remove(c);
            if (rows == null) {
                throw new IllegalStateException("stream " + k + " delivered workload commit " + c + " twice");
            }
            return rows;
        }
    }

    /** The stream an upsert goes to. */
    private static int streamOf(GenericRow upsert) {
        return (int) ((Long) upsert.get(WorkloadSchema.TS) % STREAMS);
    }

    private GenericRow streamRow(int k, GenericRow source, int width) {
        Object[] f = new Object[width];
        f[0] = source.get(WorkloadSchema.ID);
        int first = firstOf(k);
        for (int i = 0; i < SOURCE.length; i++) {
            f[first + i] = source.get(SOURCE[i]);
        }
        Object ts = source.get(WorkloadSchema.TS);
        if (ordering == Ordering.SEQUENCE_GROUPS) {
            f[first + SOURCE.length] = ts;
        } else {
            f[width - 1] = ts;
        }
        return GenericRow.insert(f);
    }

    /** The expected table. */
    Model expected() {
        StandardWorkload w = workload.restart();
        int keys = (int) w.keySpace();
        long[][] group = new long[STREAMS][keys];
        long[][] ts = new long[STREAMS][keys];
        for (int k = 0; k < STREAMS; k++) {
            Arrays.fill(group[k], groupHash(new Object[SOURCE.length], 0));
            Arrays.fill(ts[k], -1);
        }
        boolean[] seen = new boolean[keys];
        Object[] values = new Object[SOURCE.length];
        for (int c = 0; c < w.commits(); c++) {
            w.forEachRowOfCommit(c, row -> {
                if (!row.kind().isRetract()) {
                    int id = (int) (long) (Long) row.get(WorkloadSchema.ID);
                    int k = streamOf(row);
                    for (int i = 0; i < SOURCE.length; i++) {
                        values[i] = row.get(SOURCE[i]);
                    }
                    group[k][id] = groupHash(values, 0);
                    ts[k][id] = (Long) row.get(WorkloadSchema.TS);
                    seen[id] = true;
                }
            });
        }
        long[] hash = new long[keys];
        long[] groups = new long[STREAMS];
        long[] keyTs = new long[STREAMS];
        for (int id = 0; id < keys; id++) {
            if (!seen[id]) {
                continue;
            }
            long max = -1;
            for (int k = 0; k < STREAMS; k++) {
                groups[k] = group[k][id];
                keyTs[k] = ts[k][id];
                max = Math.max(max, keyTs[k]);
            }
            if (ordering == Ordering.SEQUENCE_FIELD) {
                Arrays.fill(keyTs, max);
            }
            hash[id] = rowHash(groups, keyTs);
        }
        return new Model(hash, seen);
    }

    /** What a read row of this layout contributes: its id and the hash of its columns. */
    void addTo(Model.Comparison check, Object[] row) {
        long[] groups = new long[STREAMS];
        long[] ts = new long[STREAMS];
        for (int k = 0; k < STREAMS; k++) {
            int first = firstOf(k);
            groups[k] = groupHash(row, first);
            Object t = ordering == Ordering.SEQUENCE_GROUPS ? row[first + SOURCE.length] : row[row.length - 1];
            ts[k] = t == null ? -1 : (Long) t;
        }
        check.add((Long) row[0], rowHash(groups, ts));
    }

    /** A hash of the values of one group, starting at {@code row[first]}. */
    private static long groupHash(Object[] row, int first) {
        long h = 17;
        for (int i = 0; i < SOURCE.length; i++) {
            Object v = row[first + i];
            long x = v == null ? 0 : v instanceof Double d ? Double.doubleToLongBits(d) : v.hashCode();
            h = h * 31 + x;
        }
        return h;
    }

    /** A hash of a row's groups and their ordering values (under sequence.field the same one four times). */
    private static long rowHash(long[] groups, long[] ts) {
        long h = 17;
        for (int k = 0; k < STREAMS; k++) {
            h = WorkloadChecksum.mix(h * 31 + groups[k]);
            h = WorkloadChecksum.mix(h * 31 + ts[k]);
        }
        return h;
    }

    /** The expected table: which keys of the key space exist, and the hash of each one's row. */
    static final class Model {
        private final long[] hash;
        private final boolean[] present;
        private final long rows;

        private Model(long[] hash, boolean[] present) {
            this.hash = hash;
            this.present = present;
            long n = 0;
            for (boolean p : present) {
                n += p ? 1 : 0;
            }
            this.rows = n;
        }

        long rows() {
            return rows;
        }

        /** A comparison of one read of a table with this model, fed row by row. */
        Comparison compare() {
            return new Comparison();
        }

        final class Comparison {
            private final boolean[] read = new boolean[hash.length];
            private long rowsRead;
            private long wrong;
            private long unexpected;
            private long found;

            void add(long id, long rowHash) {
                rowsRead++;
                if (id < 0 || id >= hash.length || !present[(int) id] || read[(int) id]) {
                    unexpected++;
                    return;
                }
                read[(int) id] = true;
                found++;
                if (hash[(int) id] != rowHash) {
                    wrong++;
                }
            }

            Verdict result() {
                return new Verdict(rows, rowsRead, wrong, rows - found, unexpected);
            }
        }
    }

    /** How a read table compares with the model: rows with a wrong value, keys missing, rows not expected. */
    record Verdict(long expectedRows, long rowsRead, long wrongRows, long missingRows, long unexpectedRows) {
        boolean correct() {
            return wrongRows == 0 && missingRows == 0 && unexpectedRows == 0;
        }

        @Override
        public String toString() {
            return correct()
                    ? "equals the model (" + rowsRead + " rows)"
                    : "DIFFERS from the model: " + wrongRows + " of " + expectedRows + " rows wrong, " + missingRows
                            + " missing, " + unexpectedRows + " unexpected";
        }
    }
}
