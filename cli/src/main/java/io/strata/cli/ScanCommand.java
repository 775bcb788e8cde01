package io.strata.cli;

import io.strata.cli.workload.TableChecksum;
import io.strata.cli.workload.WorkloadCheck;
import io.strata.storage.data.GenericRow;
import io.strata.storage.read.ReadBuilder;
import io.strata.storage.schema.DataField;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.util.CloseableIterator;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code strata scan}: merge-on-read of a snapshot. */
@Command(
        name = "scan",
        mixinStandardHelpOptions = true,
        description = "Read a snapshot (latest by default) with merge on read.")
final class ScanCommand implements Callable<Integer> {
    @Mixin
    WarehouseOptions target;

    @Spec
    CommandSpec spec;

    @Option(names = "--snapshot", paramLabel = "ID", description = "Read this snapshot.")
    Long snapshot;

    @Option(
            names = "--timestamp",
            paramLabel = "TIME",
            description = "Time travel: the last snapshot at or before TIME (ISO-8601 instant or epoch milliseconds).")
    String timestamp;

    @Option(names = "--tag", paramLabel = "NAME", description = "Read the snapshot this tag holds.")
    String tag;

    @Option(names = "--count", description = "Print only the number of rows: live_rows=<N>.")
    boolean count;

    @Option(
            names = "--checksum",
            description = "Print live_rows=<N> checksum=<C> (WORKLOAD.md checksum over columns id and ts).")
    boolean checksum;

    @Option(
            names = "--limit",
            defaultValue = "100",
            paramLabel = "N",
            description = "Rows to print (default ${DEFAULT-VALUE}; -1 for all).")
    long limit;

    @Option(
            names = "--json",
            description = "Print rows as JSON lines (with --count or --checksum one JSON object); "
                    + "summaries go to stderr.")
    boolean json;

    @Option(
            names = "--changelog",
            description = "Print the changes after --from-snapshot up to --snapshot (default "
                    + "latest) with their row kind: the changelog files of the table's changelog-producer, or the commits' "
                    + "delta files with changelog-producer=none.")
    boolean changelog;

    @Option(
            names = "--from-snapshot",
            paramLabel = "N",
            defaultValue = "0",
            description = "With --changelog: changes after snapshot N (default ${DEFAULT-VALUE}: from the start).")
    long fromSnapshot;

    @Option(
            names = "--consumer",
            paramLabel = "ID",
            description = "With --changelog: read as this consumer, from its recorded position (instead of "
                    + "--from-snapshot), and record the new position at the end; expiration keeps what a consumer "
                    + "has not read.")
    String consumer;

    @Override
    public Integer call() {
        if ((snapshot != null ? 1 : 0) + (timestamp != null ? 1 : 0) + (tag != null ? 1 : 0) > 1) {
            throw new IllegalArgumentException("give one of --snapshot, --timestamp and --tag");
        }
        checkArguments();
        FileStoreTable table = target.openTable();
        ReadBuilder read = table.newReadBuilder();
        if (snapshot != null) {
            read.withSnapshot(snapshot);
        } else if (tag != null) {
            read.withTag(tag);
        } else if (timestamp != null) {
            read.withTimestamp(parseTime(timestamp));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (changelog) {
            if (timestamp != null || tag != null) {
                throw new IllegalArgumentException(
                        "--changelog takes --from-snapshot and --snapshot, not --timestamp or --tag");
            }
            long to = snapshot != null
                    ? snapshot
                    : table.snapshotManager().latestId().orElse(0);
            printChangelog(out, table, to);
            out.flush();
            return 0;
        }
        if (checksum) {
            WorkloadCheck c = TableChecksum.of(read);
            out.println(
                    json
                            ? Json.compact(Json.object("live_rows", c.liveRows(), "checksum", c.checksum()))
                            : "live_rows=" + c.liveRows() + " checksum=" + c.checksum());
        } else if (count) {
            long n = 0;
            try (CloseableIterator<GenericRow> it = read.withProjection(
                            table.schema().primaryKeys().isEmpty()
                                    ? new String[] {
                                        table.schema().fields().get(0).name()
                                    }
                                    : table.schema().primaryKeys().toArray(new String[0]))
                    .readAll()) {
                while (it.hasNext()) {
                    it.next();
                    n++;
                }
            }
            out.println(json ? Json.compact(Json.object("live_rows", n)) : "live_rows=" + n);
        } else {
            printRows(out, table.schema().fields(), read);
        }
        out.flush();
        return 0;
    }

    private void printRows(PrintWriter out, List<DataField> fields, ReadBuilder read) {
        long shown = 0;
        TextTable text = new TextTable(fields.stream().map(DataField::name).toArray(String[]::new));
        try (CloseableIterator<GenericRow> it = read.readAll()) {
            while (it.hasNext() && (limit < 0 || shown < limit)) {
                GenericRow r = it.next();
                shown++;
                if (json) {
                    out.println(Json.compact(jsonRow(fields, r, null)));
                } else {
                    text.add(textRow(fields, r, null));
                }
            }
            if (!json) {
                text.print(out);
            }
            if (limit >= 0 && shown == limit && it.hasNext()) {
                spec.commandLine().getErr().println("(stopped after --limit " + limit + " rows)");
            }
        }
    }

    /**
     * The rows (unless --count), then the counts per row kind: with --json the rows are JSON lines
     * and the counts go to stderr, so stdout is JSON only; with --json --count the counts are one
     * JSON object on stdout.
     */
    /** Arguments no table can answer, refused before the table is opened. */
    private void checkArguments() {
        if (snapshot != null && snapshot < 1) {
            throw new IllegalArgumentException("--snapshot " + snapshot + " is not a snapshot id: ids start at 1");
        }
        if (fromSnapshot < 0) {
            throw new IllegalArgumentException("--from-snapshot " + fromSnapshot
                    + " is not a snapshot id: give 0 for the changes from the first snapshot, or a snapshot id");
        }
        if (!changelog && spec.commandLine().getParseResult().hasMatchedOption("--from-snapshot")) {
            // without --changelog the scan would read the whole table and look like an answer to it
            throw new IllegalArgumentException(
                    "--from-snapshot takes --changelog (the changes after a snapshot); to read one snapshot give --snapshot");
        }
        if (limit < -1) {
            throw new IllegalArgumentException("--limit " + limit + " is not a row count: give N >= 0, or -1 for all");
        }
    }

    private void printChangelog(PrintWriter out, FileStoreTable table, long to) {
        List<DataField> fields = table.schema().fields();
        String[] header = new String[fields.size() + 1];
        header[0] = "kind";
        for (int i = 0; i < fields.size(); i++) {
            header[i + 1] = fields.get(i).name();
        }
        TextTable text = new TextTable(header);
        long shown = 0;
        long[] counts = new long[4];
        long from = consumer == null
                ? fromSnapshot
                : table.context()
                                .consumerManager()
                                .get(consumer)
                                .map(c -> c.nextSnapshot())
                                .orElseGet(() ->
                                        table.snapshotManager().earliestId().orElse(1))
                        - 1;
        try (CloseableIterator<GenericRow> it = consumer == null
                ? table.newIncrementalRead().read(fromSnapshot, to)
                : table.newIncrementalRead().readAs(consumer, to)) {
            while (it.hasNext()) {
                GenericRow r = it.next();
                counts[r.kind().toByteValue()]++;
                if (count || (limit >= 0 && shown >= limit)) {
                    continue;
                }
                shown++;
                if (json) {
                    out.println(Json.compact(jsonRow(fields, r, r.kind().shortString())));
                } else {
                    text.add(textRow(fields, r, r.kind().shortString()));
                }
            }
        }
        if (!count && !json) {
            text.print(out);
        }
        if (json && count) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("fromSnapshot", from);
            m.put("toSnapshot", to);
            String[] kinds = {"+I", "-U", "+U", "-D"};
            for (int k = 0; k < kinds.length; k++) {
                m.put(kinds[k], counts[k]);
            }
            out.println(Json.compact(m));
            return;
        }
        PrintWriter summary = json ? spec.commandLine().getErr() : out;
        summary.printf(
                "changelog snapshots %d..%d: +I=%d -U=%d +U=%d -D=%d%n",
                from + 1, to, counts[0], counts[1], counts[2], counts[3]);
        summary.flush();
    }

    /** A row as a JSON object in {@link Values}' forms; {@code kind} first when not null. */
    private static Map<String, Object> jsonRow(List<DataField> fields, GenericRow r, String kind) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (kind != null) {
            m.put("kind", kind);
        }
        for (int i = 0; i < fields.size(); i++) {
            m.put(fields.get(i).name(), Values.json(fields.get(i).type(), r.get(i)));
        }
        return m;
    }

    private static Object[] textRow(List<DataField> fields, GenericRow r, String kind) {
        int off = kind == null ? 0 : 1;
        Object[] cells = new Object[fields.size() + off];
        if (kind != null) {
            cells[0] = kind;
        }
        for (int i = 0; i < fields.size(); i++) {
            cells[i + off] = Values.text(fields.get(i).type(), r.get(i));
        }
        return cells;
    }

    static long parseTime(String t) {
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            try {
                return Instant.parse(t).toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw new IllegalArgumentException("--timestamp '" + t
                        + "' is neither epoch milliseconds nor an ISO-8601 " + "instant such as 2026-11-29T23:00:00Z");
            }
        }
    }
}
