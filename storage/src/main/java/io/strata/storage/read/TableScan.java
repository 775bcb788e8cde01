package io.strata.storage.read;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CorruptFileException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.Path;

/**
 * Plans a batch read of a snapshot: reads its base manifests, prunes by partition (manifest
 * ranges, then exact partition values) and by file statistics, and groups the live files into
 * one {@link Split} per bucket.
 *
 * <p>File pruning on a primary-key table uses only conjuncts over primary-key fields: a newer
 * version of a row in another file decides the row's value, so a file may be skipped only when
 * no version of a matching key can be in it. Append tables prune on any column.
 */
final class TableScan {
    private final TableContext table;
    private final TableSchema schema;
    private final Predicate partitionFilter;
    private final Predicate fileFilter;

    TableScan(TableContext table, Predicate filter) {
        this.table = table;
        this.schema = table.schema();
        List<Predicate> partitionParts = new ArrayList<>();
        List<Predicate> fileParts = new ArrayList<>();
        Set<Integer> partitionFields = toSet(schema.partitionIndexes());
        Set<Integer> keyFields = toSet(schema.primaryKeyIndexes());
        if (filter != null) {
            for (Predicate p : filter.conjuncts()) {
                if (partitionFields.containsAll(p.fields())) {
                    partitionParts.add(p);
                } else if (!schema.hasPrimaryKey() || keyFields.containsAll(p.fields())) {
                    fileParts.add(p);
                }
            }
        }
        this.partitionFilter =
                partitionParts.isEmpty() ? null : Predicate.and(partitionParts.toArray(new Predicate[0]));
        this.fileFilter = fileParts.isEmpty() ? null : Predicate.and(fileParts.toArray(new Predicate[0]));
    }

    private static Set<Integer> toSet(int[] a) {
        Set<Integer> s = new HashSet<>();
        for (int i : a) {
            s.add(i);
        }
        return s;
    }

    /**
     * A snapshot names the schema it was written with; one that names a schema the table does not
     * have (damaged, or written by a writer whose schema file is missing) is not read as if it had
     * the reader's schema. Free when the snapshot has the reader's schema (the usual case);
     * otherwise one existence check (a newer schema is legitimate: this handle was opened before
     * a column was added).
     */
    private void requireSchemaOf(Snapshot snapshot) {
        long id = snapshot.schemaId();
        if (id == schema.id()) {
            return;
        }
        Path schemaFile = table.paths().schemaFile(id);
        boolean exists;
        try {
            exists = table.fileIO().exists(schemaFile);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "table " + table.name() + ": cannot check schema file " + schemaFile + ": " + e.getMessage(), e);
        }
        if (!exists) {
            throw new CorruptFileException(
                    table.paths().snapshotFile(snapshot.id()),
                    "names schema " + id + " of table " + table.name() + ", whose file " + schemaFile + " is missing"
                            + (id > schema.id()
                                    ? " (the latest schema this reader knows is " + schema.id() + ")"
                                    : ""));
        }
    }

    List<Split> plan(Snapshot snapshot) {
        requireSchemaOf(snapshot);
        int[] partitionIndexes = schema.partitionIndexes();
        int arity = schema.fields().size();
        EntryFilter entries = new EntryFilter() {
            @Override
            public boolean mayContainPartitions(Object[] min, Object[] max) {
                return partitionFilter == null
                        || partitionFilter.mayMatch(StatsAdapters.ofPartitionRange(partitionIndexes, min, max));
            }

            @Override
            public boolean accept(Object[] partition, int bucket) {
                if (partitionFilter == null) {
                    return true;
                }
                Object[] row = new Object[arity];
                for (int i = 0; i < partitionIndexes.length; i++) {
                    row[partitionIndexes[i]] = partition[i];
                }
                return partitionFilter.test(row);
            }
        };
        List<ManifestEntry> live;
        try {
            live = table.manifests().scanner().scan(snapshot.baseManifestList(), entries);
        } catch (CorruptFileException e) {
            // the file is named; say which snapshot needs it, so the reader knows what cannot be read
            throw new CorruptFileException(
                    new Path(e.file()),
                    e.reason() + " (snapshot " + snapshot.id() + " of table " + table.name() + " names it)",
                    e);
        }
        Map<BucketId, List<ManifestEntry>> byBucket = new LinkedHashMap<>();
        for (ManifestEntry e : live) {
            if (fileFilter != null && !fileFilter.mayMatch(StatsAdapters.ofFile(schema, e.file()))) {
                continue;
            }
            byBucket.computeIfAbsent(e.bucketId(), x -> new ArrayList<>()).add(e);
        }
        List<Split> splits = new ArrayList<>();
        for (List<ManifestEntry> group : byBucket.values()) {
            List<DataFileMeta> files = new ArrayList<>();
            for (ManifestEntry e : group) {
                files.add(e.file());
            }
            ManifestEntry first = group.get(0);
            splits.add(new Split(snapshot.id(), first.partition(), first.bucket(), files));
        }
        return splits;
    }
}
