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
 * CDC streams, each updating one disjoint column group of the same keys of a partial-update
 * table: the upsert of global row {@code g} goes to stream {@code g mod 4}, which sets only its
 * column ({@code name}, {@code price}, {@code qty}, {@code payload}) and its ordering value
 * {@code ts = g}. Stream {@code k} arrives {@code k} commits late (its rows of workload commit
 * {@code c} are written in table commit {@code c + k}), and the last stream is also out of order
 * within itself: it delivers the workload's commits in swapped pairs (1, 0, 3, 2, ...), as a
 * source replaying a late batch does. So a key's rows interleave out of order across commits and
 * only the ordering values put them right; in particular a stale {@code payload} often meets a
 * fresh value of another column of its key in one commit, the case where an engine that orders a
 * pre-merged row by its highest ordering value lets the stale value win. Deletes of the standard
 * stream are left out (partial-update has no delete here); their draws still happen, so the
 * upserts are exactly the standard workload's.
 *
 * <p>Two ways to order, one table layout each:
 * <ul>
 *   <li>{@link Ordering#SEQUENCE_GROUPS}: columns {@code id, name, name_ts, price, price_ts, qty,
 *       qty_ts, payload, payload_ts} with {@code fields.<g>_ts.sequence-group=<g>}; a stream row
 *       sets its column and its group's ordering column.</li>
 *   <li>{@link Ordering#SEQUENCE_FIELD}: columns {@code id, name, price, qty, payload, ts} with
 *       {@code sequence.field=ts}; a stream row sets its column and {@code ts}.</li>
 * </ul>
 * Each stream regenerates the workload from its seed (the generator is deterministic), so at most
 * one commit of a stream's rows is held in memory. The expected table: every key ever upserted;
 * each column from the key's last upsert routed to its stream (null if none), each group's
 * ordering value that upsert's {@code ts} (under sequence.field the highest of the key's), as
 * summarized by {@link #expected()}.
 */
final class WideStreams {
    static final int STREAMS = 4;
    private static final String[] GROUP_COLUMNS = {"name", "price", "qty", "payload"};
    /** The workload row position of each stream's column. */
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

    WideStreams(StandardWorkload workload, Ordering ordering) {
        this.workload = workload;
        this.ordering = ordering;
    }

    Ordering ordering() {
        return ordering;
    }

    /** Table commits: the workload's, plus one for each commit of lag of the last stream. */
    int commits() {
        return workload.commits() + STREAMS - 1;
    }

    List<Column> columns() {
        List<Column> cs = new ArrayList<>();
        cs.add(WorkloadSchema.COLUMNS.get(WorkloadSchema.ID));
        for (int k = 0; k < STREAMS; k++) {
            cs.add(WorkloadSchema.COLUMNS.get(SOURCE[k]));
            if (ordering == Ordering.SEQUENCE_GROUPS) {
                cs.add(new Column(GROUP_COLUMNS[k] + "_ts", "BIGINT", true));
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
            for (String g : GROUP_COLUMNS) {
                m.put("fields." + g + "_ts.sequence-group", g);
            }
        } else {
            m.put("sequence.field", "ts");
        }
        return m;
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
        Object ts = source.get(WorkloadSchema.TS);
        if (ordering == Ordering.SEQUENCE_GROUPS) {
            f[1 + 2 * k] = source.get(SOURCE[k]);
            f[2 + 2 * k] = ts;
        } else {
            f[1 + k] = source.get(SOURCE[k]);
            f[width - 1] = ts;
        }
        return GenericRow.insert(f);
    }

    /** The expected table. */
    Model expected() {
        StandardWorkload w = workload.restart();
        int keys = (int) w.keySpace();
        Object[][] value = new Object[STREAMS][keys];
        long[][] ts = new long[STREAMS][keys];
        for (long[] t : ts) {
            Arrays.fill(t, -1);
        }
        boolean[] seen = new boolean[keys];
        for (int c = 0; c < w.commits(); c++) {
            w.forEachRowOfCommit(c, row -> {
                if (!row.kind().isRetract()) {
                    int id = (int) (long) (Long) row.get(WorkloadSchema.ID);
                    int k = streamOf(row);
                    value[k][id] = row.get(SOURCE[k]);
                    ts[k][id] = (Long) row.get(WorkloadSchema.TS);
                    seen[id] = true;
                }
            });
        }
        long[] hash = new long[keys];
        long[] keyTs = new long[STREAMS];
        for (int id = 0; id < keys; id++) {
            if (!seen[id]) {
                continue;
            }
            long max = -1;
            for (int k = 0; k < STREAMS; k++) {
                keyTs[k] = ts[k][id];
                max = Math.max(max, keyTs[k]);
            }
            if (ordering == Ordering.SEQUENCE_FIELD) {
                Arrays.fill(keyTs, max);
            }
            hash[id] = rowHash(value[0][id], value[1][id], value[2][id], value[3][id], keyTs);
        }
        return new Model(hash, seen);
    }

    /** What a read row of this layout contributes: its id and the hash of its columns. */
    void addTo(Model.Comparison check, Object[] row) {
        long[] ts = new long[STREAMS];
        Object[] v = new Object[STREAMS];
        for (int k = 0; k < STREAMS; k++) {
            if (ordering == Ordering.SEQUENCE_GROUPS) {
                v[k] = row[1 + 2 * k];
                ts[k] = row[2 + 2 * k] == null ? -1 : (Long) row[2 + 2 * k];
            } else {
                v[k] = row[1 + k];
                ts[k] = row[row.length - 1] == null ? -1 : (Long) row[row.length - 1];
            }
        }
        check.add((Long) row[0], rowHash(v[0], v[1], v[2], v[3], ts));
    }

    /**
     * A hash of a row's column values and the ordering values (one per group; under
     * sequence.field the same one four times) that a read row must reproduce exactly.
     */
    private static long rowHash(Object name, Object price, Object qty, Object payload, long[] ts) {
        long h = 17;
        h = h * 31 + (name == null ? 0 : name.hashCode());
        h = h * 31 + (price == null ? 0 : Double.doubleToLongBits((Double) price));
        h = h * 31 + (qty == null ? 0 : (Integer) qty);
        h = h * 31 + (payload == null ? 0 : payload.hashCode());
        for (long t : ts) {
            h = WorkloadChecksum.mix(h * 31 + t);
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
