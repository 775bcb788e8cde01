package io.strata.storage.compact;

import io.strata.storage.changelog.ChangelogProducer;
import io.strata.storage.changelog.FullChangelogMerge;
import io.strata.storage.changelog.LookupCache;
import io.strata.storage.data.KeyValue;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileSource;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.mergetree.BucketEdit;
import io.strata.storage.mergetree.BucketReader;
import io.strata.storage.mergetree.MergingIterator;
import io.strata.storage.mergetree.RecordComparator;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.FileOptions;
import io.strata.storage.options.WriteOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;

/**
 * Executes a {@link CompactPlan}: upgraded files move to the output level unchanged; every
 * rewritten section is k-way merged with the table's merge engine (top-level results when the
 * plan drops deletes, partial results otherwise) into files of about {@code target-file-size} on
 * the output level. Runs beyond the merge bounds ({@code sort-spill-memory},
 * {@code sort-spill-threshold}) are pre-merged through local spill files.
 *
 * <p>Nothing is committed here. On failure every file written is deleted; the inputs are never
 * touched.
 */
public final class CompactRewriter implements AutoCloseable {
    private final TableContext table;
    private final BucketReader reader;
    private final TableSchema schema;
    private final RecordComparator comparator;
    private final MergeEngines engines;
    private final long targetFileSize;
    private final DataFileWriter.Factory files;
    private LookupCache lookupCache;
    private volatile boolean cancelled;

    public CompactRewriter(TableContext table) {
        this.table = table;
        this.reader = new BucketReader(table);
        this.schema = table.schema();
        this.engines = table.mergeEngines();
        if (engines == null) {
            throw new IllegalArgumentException("table " + table.name() + " has no primary key: append tables are not "
                    + "compacted by the merge-tree compaction");
        }
        this.comparator = reader.rewriteComparator();
        this.targetFileSize = schema.tableOptions().get(WriteOptions.TARGET_FILE_SIZE);
        this.files = DataFileWriter.forCommit(table.fileIO(), schema, table.formatConfig(), table.clock());
    }

    public CompactResult rewrite(CompactPlan plan) throws IOException {
        DataFilePathFactory paths = table.bucketPaths(plan.bucketId());
        List<DataFileMeta> before = new ArrayList<>();
        List<DataFileMeta> after = new ArrayList<>();
        List<RollingFileWriter> writers = new ArrayList<>();
        long rowsRead = 0;
        long rowsWritten = 0;
        FullChangelogMerge changelogInMerge = changelogInMerge(plan, paths);
        RollingFileWriter changelogOut = null;
        try {
            if (changelogInMerge != null) {
                changelogOut = new RollingFileWriter(
                        files,
                        paths.supplier(schema.tableOptions().get(FileOptions.CHANGELOG_FILE_PREFIX)),
                        0,
                        FileSource.COMPACT,
                        targetFileSize,
                        comparator.keys());
                writers.add(changelogOut);
            }
            for (CompactPlan.Section section : plan.sections()) {
                checkCancelled();
                if (!section.rewrite()) {
                    for (DataFileMeta f : section.files()) {
                        if (f.level() != plan.outputLevel()) {
                            before.add(f);
                            after.add(f.upgrade(plan.outputLevel()));
                        }
                    }
                    continue;
                }
                before.addAll(section.files());
                RollingFileWriter out = new RollingFileWriter(
                        files,
                        paths.supplier(schema.tableOptions().get(FileOptions.DATA_FILE_PREFIX)),
                        plan.outputLevel(),
                        FileSource.COMPACT,
                        targetFileSize,
                        comparator.keys());
                writers.add(out);
                if (changelogInMerge != null) {
                    rowsWritten += changelogInMerge.merge(section.files(), out, changelogOut);
                } else {
                    rowsWritten += mergeSection(plan, paths, section, out);
                }
                for (DataFileMeta f : section.files()) {
                    rowsRead += f.rowCount();
                }
                after.addAll(out.finish());
            }
            checkCancelled();
            List<DataFileMeta> changelog = changelogInMerge != null ? changelogOut.finish() : changelog(plan, paths);
            return new CompactResult(plan, new BucketEdit(before, after, changelog), rowsRead, rowsWritten);
        } catch (IOException | RuntimeException e) {
            writers.forEach(RollingFileWriter::abort);
            throw e;
        }
    }

    private long mergeSection(
            CompactPlan plan, DataFilePathFactory paths, CompactPlan.Section section, RollingFileWriter out)
            throws IOException {
        long rowsWritten = 0;
        // Merge in LSM order, not the packed runs of the section: batches of the bounded merge must
        // be adjacent in age (see BoundedMerge).
        try (CloseableIterator<KeyValue> merged = reader.mergeFilesForRewrite(
                paths,
                section.files(),
                plan.dropDelete() ? MergingIterator.Mode.TOP_LEVEL : MergingIterator.Mode.PARTIAL)) {
            while (merged.hasNext()) {
                out.write(merged.next());
                if ((++rowsWritten & 4095) == 0) {
                    checkCancelled();
                }
            }
        }
        return rowsWritten;
    }

    /**
     * The full-compaction changelog made by the rewrite's own merge (one pass instead of a second
     * one over the bucket), when the table asks for it and the plan rewrites every file of the
     * bucket into the top level; null otherwise.
     */
    private FullChangelogMerge changelogInMerge(CompactPlan plan, DataFilePathFactory paths) {
        if (schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER) != ChangelogOptions.Producer.FULL_COMPACTION
                || !new ChangelogProducer(table, null).applies(plan.levels(), plan.inputFiles(), plan.outputLevel())
                || !plan.sections().stream().allMatch(CompactPlan.Section::rewrite)) {
            return null;
        }
        return new FullChangelogMerge(
                table,
                paths,
                plan.levels(),
                plan.dropDelete(),
                schema.tableOptions().get(ChangelogOptions.ROW_DEDUPLICATE));
    }

    private List<DataFileMeta> changelog(CompactPlan plan, DataFilePathFactory paths) throws IOException {
        if (schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogOptions.Producer.NONE) {
            return List.of();
        }
        ChangelogProducer producer = new ChangelogProducer(table, lookupCache());
        return producer.applies(plan.levels(), plan.inputFiles(), plan.outputLevel())
                ? producer.produce(plan.levels(), paths)
                : List.of();
    }

    /**
     * Asks a rewrite running in another thread to stop: it throws {@link CancellationException} at
     * its next check (between sections, every 4,096 rows written, before the changelog), deleting
     * every file it wrote. Cancelling by interrupting that thread instead can deadlock it inside the
     * JDK: Parquet writes column chunks through an interruptible channel over the file's stream, and
     * an interrupt closes that channel, and so the stream, from within {@code Thread.interrupt}.
     * Later rewrites of this rewriter are cancelled too.
     */
    public void cancel() {
        cancelled = true;
    }

    private void checkCancelled() {
        if (cancelled) {
            throw new CancellationException("compaction of table " + table.name() + " cancelled");
        }
    }

    /** Deletes the local lookup files. */
    @Override
    public void close() {
        if (lookupCache != null) {
            try {
                lookupCache.close();
            } catch (IOException ignored) {
                // local scratch files; nothing to lose
            }
            lookupCache = null;
        }
    }

    /** The lookup files of this rewriter's buckets, kept across its compactions (lookup producer only). */
    private LookupCache lookupCache() {
        if (schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER) != ChangelogOptions.Producer.LOOKUP) {
            return null;
        }
        if (lookupCache == null) {
            Long max = schema.tableOptions().get(ChangelogOptions.LOOKUP_CACHE_MAX_DISK_SIZE);
            lookupCache =
                    new LookupCache(table.spillDir(), max == null ? Long.MAX_VALUE : max, schema.primaryKeyIndexes());
        }
        return lookupCache;
    }
}
