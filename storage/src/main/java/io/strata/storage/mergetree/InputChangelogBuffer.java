package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The input rows of one bucket since the last commit, for {@code changelog-producer=input}: kept
 * unmerged, and handed out at commit as one stream sorted by the record order (key, then
 * {@code sequence.field}, then sequence number). Under memory pressure the rows in memory are
 * sorted and spilled to a local file; {@link #sorted()} merges every spill with the rest, so a
 * commit's changelog is one sorted run whatever the writer's memory was. The rows stay until
 * {@link #discard()}, so a commit whose changelog could not be written can try again.
 *
 * <p>Why that order: per key it is the order the merge engine folds the versions in, so a
 * consumer that applies the rows of a commit in order (+I/+U put, -U/-D remove) ends in the
 * table's state, {@code sequence.field} included. Arrival order would not: a delete that arrives
 * after an insert with a newer ordering value loses in the table but would win for the consumer.
 */
final class InputChangelogBuffer {
    private final RecordComparator comparator;
    private final File spillDir;
    private final List<KeyValue> records = new ArrayList<>();
    private final List<SpillFile> spills = new ArrayList<>();
    private long bytes;

    InputChangelogBuffer(RecordComparator comparator, File spillDir) {
        this.comparator = comparator;
        this.spillDir = spillDir;
    }

    void add(KeyValue kv) {
        records.add(kv);
        bytes += WriteBuffer.estimate(kv.row());
    }

    /** Estimated heap held by the rows in memory (spilled rows hold none). */
    long estimatedBytes() {
        return bytes;
    }

    boolean isEmpty() {
        return records.isEmpty() && spills.isEmpty();
    }

    /** Sorts the rows in memory and writes them to a local spill file. */
    void spill() throws IOException {
        if (records.isEmpty()) {
            return;
        }
        spills.add(SpillFile.write(spillDir, sortedInMemory().iterator()));
        clearMemory();
    }

    /**
     * Every row buffered, spills and memory, as one sorted stream (no two rows are merged). The
     * buffer is unchanged; the caller discards it once the rows are safely written.
     */
    CloseableIterator<KeyValue> sorted() throws IOException {
        List<CloseableIterator<KeyValue>> runs = new ArrayList<>();
        try {
            for (SpillFile f : spills) {
                runs.add(f.read());
            }
        } catch (IOException | RuntimeException e) {
            runs.forEach(CloseableIterator::close);
            throw e;
        }
        runs.add(CloseableIterator.wrap(sortedInMemory().iterator(), () -> {}));
        LoserTree heads = new LoserTree(runs, comparator);
        return new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return heads.peek() != null;
            }

            @Override
            public KeyValue next() {
                KeyValue kv = heads.peek();
                if (kv == null) {
                    throw new NoSuchElementException();
                }
                heads.advance();
                return kv;
            }

            @Override
            public void close() {
                runs.forEach(CloseableIterator::close);
            }
        };
    }

    /** Drops everything buffered and deletes the spill files (rows written, or a writer aborted). */
    void discard() {
        clearMemory();
        spills.forEach(SpillFile::delete);
        spills.clear();
    }

    /** The rows in memory in record order; they arrived in sequence order, and the sort is total. */
    private List<KeyValue> sortedInMemory() {
        List<KeyValue> sorted = new ArrayList<>(records);
        sorted.sort(comparator.records());
        return sorted;
    }

    private void clearMemory() {
        records.clear();
        bytes = 0;
    }
}
