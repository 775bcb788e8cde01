package io.strata.storage.mergetree;

import io.strata.storage.data.KeyValue;
import io.strata.storage.merge.MergeFunction;
import io.strata.storage.util.CloseableIterator;
import java.io.File;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The in-memory buffer of one bucket: records in arrival order, sorted (and pre-merged per key)
 * when spilled or drained. {@link #spill()} writes the sorted buffer to a local file, so a bucket
 * that receives more than fits in memory still becomes one level-0 sorted run per commit.
 * Memory use is estimated per record ({@link #estimatedBytes()}).
 */
public final class WriteBuffer {
    private final RecordComparator comparator;
    private final KeySorter sorter;
    private final Supplier<MergeFunction> functions;
    private final File spillDir;
    private final boolean sorted;
    private final List<KeyValue> records = new ArrayList<>();
    private final List<SpillFile> spills = new ArrayList<>();
    private long bytes;

    /**
     * @param comparator null for append tables: records keep arrival order and are not merged
     * @param sorter       sorts the buffer (null for append tables)
     */
    public WriteBuffer(
            RecordComparator comparator, KeySorter sorter, Supplier<MergeFunction> functions, File spillDir) {
        this.comparator = comparator;
        this.sorter = sorter;
        this.functions = functions;
        this.spillDir = spillDir;
        this.sorted = comparator != null;
    }

    public void add(KeyValue kv) {
        records.add(kv);
        bytes += estimate(kv.row());
    }

    public long estimatedBytes() {
        return bytes;
    }

    public boolean isEmpty() {
        return records.isEmpty() && spills.isEmpty();
    }

    public boolean hasSpills() {
        return !spills.isEmpty();
    }

    /** Whether records are sorted and pre-merged (primary-key tables); an append table's are not, and never spill. */
    public boolean sortsRecords() {
        return sorted;
    }

    /**
     * Sorts, pre-merges and writes the in-memory records to a local spill file.
     *
     * @throws IllegalStateException for an append table's buffer ({@link #sortsRecords()} false):
     *     its rows keep arrival order and are flushed instead
     */
    public void spill() throws IOException {
        if (!sorted) {
            throw new IllegalStateException("an append table's write buffer is flushed, not spilled");
        }
        if (records.isEmpty()) {
            return;
        }
        try (CloseableIterator<KeyValue> it = sortedInMemory()) {
            spills.add(SpillFile.write(spillDir, it));
        }
        records.clear();
        bytes = 0;
    }

    /**
     * Everything buffered (spills and memory) as one sorted, pre-merged stream. The buffer is
     * empty afterwards; closing the iterator deletes the spill files.
     */
    public CloseableIterator<KeyValue> drain() throws IOException {
        if (!sorted) {
            List<KeyValue> copy = new ArrayList<>(records);
            clearMemory();
            return CloseableIterator.wrap(copy.iterator(), () -> {});
        }
        if (spills.isEmpty()) {
            CloseableIterator<KeyValue> it = sortedInMemory();
            clearMemory();
            return it;
        }
        List<CloseableIterator<KeyValue>> runs = new ArrayList<>();
        List<SpillFile> files = new ArrayList<>(spills);
        spills.clear();
        try {
            for (SpillFile f : files) {
                runs.add(f.read());
            }
            runs.add(sortedInMemory());
        } catch (IOException | RuntimeException e) {
            runs.forEach(CloseableIterator::close);
            files.forEach(SpillFile::delete);
            throw e;
        }
        clearMemory();
        MergingIterator merged = new MergingIterator(runs, comparator, functions.get(), MergingIterator.Mode.PARTIAL);
        return CloseableIterator.wrap(merged, () -> {
            merged.close();
            files.forEach(SpillFile::delete);
        });
    }

    /** Drops everything buffered (a writer being aborted). */
    public void discard() {
        clearMemory();
        spills.forEach(SpillFile::delete);
        spills.clear();
    }

    private void clearMemory() {
        records.clear();
        bytes = 0;
    }

    private CloseableIterator<KeyValue> sortedInMemory() {
        List<KeyValue> sortedRecords = Arrays.asList(sorter.sort(records));
        CloseableIterator<KeyValue> single = CloseableIterator.wrap(sortedRecords.iterator(), () -> {});
        return new MergingIterator(List.of(single), comparator, functions.get(), MergingIterator.Mode.PARTIAL);
    }

    /** A conservative estimate of a record's heap footprint (object headers, boxes, arrays). */
    static long estimate(Object[] row) {
        long b = 64 + 8L * row.length;
        for (Object v : row) {
            b += estimateValue(v);
        }
        return b;
    }

    /** One value's footprint; ARRAY, MAP and ROW values (lists, maps, arrays) with their elements. */
    private static long estimateValue(Object v) {
        if (v == null) {
            return 0;
        }
        if (v instanceof String) {
            return 56 + ((String) v).length() * 2L;
        } else if (v instanceof byte[]) {
            return 24 + ((byte[]) v).length;
        } else if (v instanceof BigDecimal) {
            return 80;
        } else if (v instanceof Object[]) {
            long b = 24 + 8L * ((Object[]) v).length;
            for (Object e : (Object[]) v) {
                b += estimateValue(e);
            }
            return b;
        } else if (v instanceof List) {
            long b = 40 + 8L * ((List<?>) v).size();
            for (Object e : (List<?>) v) {
                b += estimateValue(e);
            }
            return b;
        } else if (v instanceof Map) {
            long b = 64;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                b += 48 + estimateValue(e.getKey()) + estimateValue(e.getValue());
            }
            return b;
        }
        return 24;
    }
}
