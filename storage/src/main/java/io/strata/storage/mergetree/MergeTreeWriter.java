package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileWriter;
import io.strata.storage.format.FileSource;
import io.strata.storage.format.RollingFileWriter;
import io.strata.storage.fs.FileIO;
import io.strata.storage.options.FileOptions;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.store.TableContext;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer of one bucket's LSM tree: records get increasing sequence numbers, go to the
 * {@link WriteBuffer}, and become level-0 files when flushed. Sequence numbers continue from
 * {@code nextSequence} (the bucket's highest committed sequence + 1 after a restart).
 *
 * <p>Files flushed but not yet handed out by {@link #prepareCommit()} are deleted by
 * {@link #abort()}; files handed out belong to the committer.
 */
public final class MergeTreeWriter {
    private final FileIO io;
    private final TableSchema schema;
    private final DataFileWriter.Factory files;
    private final DataFilePathFactory pathFactory;
    private final WriteBuffer buffer;
    private final RecordComparator comparator;
    private final long targetFileSize;
    private final List<DataFileMeta> pending = new ArrayList<>();
    private CompactHook compaction;
    private InputChangelogBuffer inputChangelog;
    private final List<DataFileMeta> pendingChangelog = new ArrayList<>();
    private long nextSequence;

    /**
     * Inline compaction, for writers that are not write-only: told about every flush and asked
     * at each prepareCommit for finished compaction changes (files replaced, files replacing).
     */
    public interface CompactHook {
        void afterFlush(List<DataFileMeta> newFiles);

        /** The compactions finished since the last call, as one edit; {@link BucketEdit#EMPTY} if none. */
        BucketEdit drainChanges();

        /**
         * Waits for the running compaction, then starts and waits for one more if the triggers
         * (or the lookup strategy's level-0 rule) still ask for one: end of input.
         */
        void sync();

        /**
         * Stops the running compaction, if any, and returns the files compactions wrote that were
         * never handed out by {@link #drainChanges()} (the caller deletes them). Files an upgrade
         * only moved to another level are not among them: they are the table's.
         */
        List<DataFileMeta> cancel();
    }

    /** Files are written with {@code table}'s file IO, schema and format, stamped by its clock. */
    public MergeTreeWriter(
            TableContext table,
            DataFilePathFactory pathFactory,
            WriteBuffer buffer,
            RecordComparator comparator,
            long targetFileSize,
            long nextSequence) {
        this.io = table.fileIO();
        this.schema = table.schema();
        this.files = DataFileWriter.forCommit(io, schema, table.formatConfig(), table.clock());
        this.pathFactory = pathFactory;
        this.buffer = buffer;
        this.comparator = comparator;
        this.targetFileSize = targetFileSize;
        this.nextSequence = nextSequence;
    }

    public void setCompaction(CompactHook hook) {
        this.compaction = hook;
    }

    /**
     * changelog-producer input: every row written is also kept, unmerged, and written at
     * prepareCommit as the commit's changelog, one run sorted as {@link InputChangelogBuffer} says.
     * Under memory pressure those rows spill to {@code spillDir}, whether or not the data does.
     */
    public void enableInputChangelog(File spillDir) {
        this.inputChangelog = new InputChangelogBuffer(comparator, spillDir);
    }

    public void write(RowKind kind, Object[] row) {
        KeyValue kv = new KeyValue(nextSequence++, kind, row);
        buffer.add(kv);
        if (inputChangelog != null) {
            inputChangelog.add(kv);
        }
    }

    public long bufferedBytes() {
        return buffer.estimatedBytes() + (inputChangelog == null ? 0 : inputChangelog.estimatedBytes());
    }

    /** Writes the input rows kept since the last commit as changelog files (one sorted run). */
    private void writeChangelog() throws IOException {
        if (inputChangelog == null || inputChangelog.isEmpty()) {
            return;
        }
        RollingFileWriter out = new RollingFileWriter(
                files,
                pathFactory.supplier(schema.tableOptions().get(FileOptions.CHANGELOG_FILE_PREFIX)),
                0,
                FileSource.APPEND,
                targetFileSize,
                comparator.keys());
        try (CloseableIterator<KeyValue> rows = inputChangelog.sorted()) {
            while (rows.hasNext()) {
                out.write(rows.next());
            }
            pendingChangelog.addAll(out.finish());
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e; // the rows stay buffered: a retried prepareCommit writes them again
        }
        inputChangelog.discard();
    }

    /**
     * Frees memory by spilling the buffer to local disk ({@code write-buffer-spillable}); the rows
     * stay buffered, to be written at the next {@link #flush()}. An append table's buffer is
     * flushed instead (its files need not form one sorted run). The input changelog, if any, spills
     * too (see {@link #relieveMemoryByFlushing()}).
     */
    public void relieveMemoryBySpilling() throws IOException {
        if (!buffer.sortsRecords()) {
            // an append table: its rows need no single sorted run per commit, so they are written out
            flush();
            return;
        }
        spillInputChangelog();
        buffer.spill();
    }

    /**
     * Frees memory by {@link #flush() flushing} the buffer as level-0 file(s). The input changelog,
     * if any, still spills to local disk: written out here it would become a separate run, and the
     * commit's changelog would depend on where memory ran out.
     */
    public void relieveMemoryByFlushing() throws IOException {
        spillInputChangelog();
        flush();
    }

    private void spillInputChangelog() throws IOException {
        if (inputChangelog != null) {
            inputChangelog.spill();
        }
    }

    /** Writes everything buffered as level-0 file(s) of one sorted run. */
    public void flush() throws IOException {
        if (buffer.isEmpty()) {
            return;
        }
        RollingFileWriter out = new RollingFileWriter(
                files,
                pathFactory.supplier(schema.tableOptions().get(FileOptions.DATA_FILE_PREFIX)),
                0,
                FileSource.APPEND,
                targetFileSize,
                comparator == null ? null : comparator.keys());
        try (CloseableIterator<KeyValue> records = buffer.drain()) {
            while (records.hasNext()) {
                out.write(records.next());
            }
            List<DataFileMeta> files = out.finish();
            pending.addAll(files);
            if (compaction != null) {
                compaction.afterFlush(files);
            }
        } catch (IOException | RuntimeException e) {
            out.abort();
            throw e;
        }
    }

    /** What one prepareCommit hands out: appended files and their changelog, and compaction's edit. */
    public static final class Increment {
        private final List<DataFileMeta> appended;
        private final List<DataFileMeta> changelog;
        private final BucketEdit compaction;

        Increment(List<DataFileMeta> appended, List<DataFileMeta> changelog, BucketEdit compaction) {
            this.appended = List.copyOf(appended);
            this.changelog = List.copyOf(changelog);
            this.compaction = compaction;
        }

        /** New level-0 files flushed since the last call. */
        public List<DataFileMeta> appendedFiles() {
            return appended;
        }

        /** The input changelog of those rows ({@code changelog-producer=input}). */
        public List<DataFileMeta> changelogFiles() {
            return changelog;
        }

        /** Compactions finished since the last call; {@link BucketEdit#EMPTY} for a write-only writer. */
        public BucketEdit compaction() {
            return compaction;
        }

        public boolean isEmpty() {
            return appended.isEmpty() && changelog.isEmpty() && compaction.isEmpty();
        }
    }

    /** Flushes and hands out the new files and finished compactions since the last call. */
    public Increment prepareCommit() throws IOException {
        return prepare(false);
    }

    /**
     * Like {@link #prepareCommit()}, after waiting for the inline compaction
     * ({@link CompactHook#sync()}), so nothing compacting is left behind (end of input).
     */
    public Increment prepareLastCommit() throws IOException {
        return prepare(true);
    }

    private Increment prepare(boolean waitCompaction) throws IOException {
        flush();
        writeChangelog();
        if (waitCompaction && compaction != null) {
            compaction.sync();
        }
        List<DataFileMeta> appended = List.copyOf(pending);
        pending.clear();
        List<DataFileMeta> changelog = List.copyOf(pendingChangelog);
        pendingChangelog.clear();
        if (compaction == null) {
            return new Increment(appended, changelog, BucketEdit.EMPTY);
        }
        return new Increment(appended, changelog, compaction.drainChanges());
    }

    /** Discards the buffer and deletes files not yet handed out. Never throws. */
    public void abort() {
        List<DataFileMeta> unreferenced = new ArrayList<>(pending);
        if (compaction != null) {
            unreferenced.addAll(compaction.cancel());
        }
        buffer.discard();
        unreferenced.addAll(pendingChangelog);
        for (DataFileMeta f : unreferenced) {
            try {
                io.delete(pathFactory.toPath(f.fileName()));
            } catch (IOException ignored) {
                // an unreferenced file; orphan cleanup removes it
            }
        }
        pending.clear();
        pendingChangelog.clear();
        if (inputChangelog != null) {
            inputChangelog.discard();
        }
    }
}
