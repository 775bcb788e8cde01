package io.strata.storage.maintenance;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.data.ValueText;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.options.ExpireOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.schema.DataType;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drops whole partitions older than {@code partition.expiration-time}, in one OVERWRITE snapshot
 * (Paimon's option names). A partition's time is the text {@code partition.timestamp-pattern} makes
 * of its values, parsed with {@code partition.timestamp-formatter}, in UTC. A partition whose time
 * cannot be parsed is never dropped; it is reported.
 *
 * <p>The dropped files stay readable from earlier snapshots (time travel) until snapshot
 * expiration frees them. A compaction of a dropped partition that commits afterwards conflicts and
 * fails cleanly; it does not bring the partition back.
 */
public final class PartitionExpiration {
    private static final Logger LOG = LoggerFactory.getLogger(PartitionExpiration.class);
    static final String COMMIT_USER = "strata-partition-expiration";

    /**
     * What a run dropped (or would drop).
     *
     * @param expired the partitions older than the threshold, as {@code k=v/...} with values in their text form
     * @param unparsed partitions whose time could not be read, with the reason; kept
     * @param snapshot the OVERWRITE snapshot that dropped them; empty for a dry run or nothing to drop
     */
    public record Result(List<String> expired, List<String> unparsed, Optional<Long> snapshot, boolean dryRun) {
        public Result {
            expired = List.copyOf(expired);
            unparsed = List.copyOf(unparsed);
        }
    }

    private final TableContext table;

    public PartitionExpiration(TableContext table) {
        this.table = table;
    }

    /** What {@link #expire()} would drop now; changes nothing. */
    public Result dryRun() {
        Plan p = plan();
        return new Result(p.expiredPaths, p.unparsed, Optional.empty(), true);
    }

    public Result expire() {
        Plan p = plan();
        if (p.expired.isEmpty()) {
            return new Result(List.of(), p.unparsed, Optional.empty(), false);
        }
        Optional<Long> snapshot;
        try (TableCommit commit = new TableCommit(table, COMMIT_USER)) {
            long identifier = Math.max(table.clock().millis(), 1);
            snapshot = commit.dropPartitions(identifier, p.expired);
        }
        LOG.info(
                "table {}: dropped {} expired partitions in snapshot {}: {}",
                table.name(),
                p.expired.size(),
                snapshot.map(String::valueOf).orElse("(none)"),
                p.expiredPaths);
        return new Result(p.expiredPaths, p.unparsed, snapshot, false);
    }

    private static final class Plan {
        final List<Object[]> expired = new ArrayList<>();
        final List<String> expiredPaths = new ArrayList<>();
        final List<String> unparsed = new ArrayList<>();
    }

    private Plan plan() {
        Plan plan = new Plan();
        TableOptions o = table.schema().tableOptions();
        Duration after = o.get(ExpireOptions.PARTITION_EXPIRATION_TIME);
        List<String> keys = table.schema().partitionKeys();
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("table " + table.name() + " has no partitions to expire");
        }
        if (after == null) {
            throw new IllegalArgumentException("table " + table.name() + ": set "
                    + ExpireOptions.PARTITION_EXPIRATION_TIME.key() + " (a table option, or for one run) to expire "
                    + "partitions");
        }
        String pattern = o.get(ExpireOptions.PARTITION_TIMESTAMP_PATTERN);
        String formatter = o.get(ExpireOptions.PARTITION_TIMESTAMP_FORMATTER);
        DateTimeFormatter format;
        try {
            format = formatter == null ? null : DateTimeFormatter.ofPattern(formatter);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "table " + table.name() + ": "
                            + ExpireOptions.PARTITION_TIMESTAMP_FORMATTER.key() + " '" + formatter + "' is not a "
                            + "java.time pattern: " + e.getMessage(),
                    e);
        }
        Optional<Snapshot> latest = table.snapshotManager().latest();
        if (latest.isEmpty()) {
            return plan;
        }
        List<DataType> types = table.schema().typesOf(table.schema().partitionIndexes());
        Map<String, Object[]> partitions = new LinkedHashMap<>();
        for (ManifestEntry e : table.manifests().scanner().scan(latest.get().baseManifestList(), EntryFilter.ALL)) {
            partitions.putIfAbsent(PartitionPath.display(keys, types, e.partition()), e.partition());
        }
        long cutoff = table.clock().millis() - after.toMillis();
        for (Map.Entry<String, Object[]> p : partitions.entrySet()) {
            String text = timeText(keys, types, p.getValue(), pattern);
            long millis;
            try {
                millis = parse(text, format);
            } catch (DateTimeParseException e) {
                plan.unparsed.add(p.getKey() + " ('" + text + "': " + e.getMessage() + ")");
                continue;
            }
            if (millis < cutoff) {
                plan.expired.add(p.getValue());
                plan.expiredPaths.add(p.getKey());
            }
        }
        return plan;
    }

    private static String timeText(List<String> keys, List<DataType> types, Object[] values, String pattern) {
        if (pattern == null) {
            return ValueText.of(types.get(0), values[0]);
        }
        String text = pattern;
        // longer keys first, so that $dt does not replace the start of $dt_hour
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            order.add(i);
        }
        order.sort((a, b) -> keys.get(b).length() - keys.get(a).length());
        for (int i : order) {
            text = text.replace("$" + keys.get(i), ValueText.of(types.get(i), values[i]));
        }
        return text;
    }

    private static long parse(String text, DateTimeFormatter format) {
        if (format != null) {
            try {
                return LocalDateTime.parse(text, format)
                        .toInstant(ZoneOffset.UTC)
                        .toEpochMilli();
            } catch (DateTimeParseException dateOnly) {
                return LocalDate.parse(text, format)
                        .atStartOfDay()
                        .toInstant(ZoneOffset.UTC)
                        .toEpochMilli();
            }
        }
        try {
            return LocalDate.parse(text)
                    .atStartOfDay()
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        } catch (DateTimeParseException notADate) {
            return LocalDateTime.parse(text.replace(' ', 'T'))
                    .toInstant(ZoneOffset.UTC)
                    .toEpochMilli();
        }
    }
}
