package io.strata.storage.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.merge.MergeEngines;
import io.strata.storage.schema.Schema;
import io.strata.storage.schema.SchemaValidation;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.testutil.DirListing;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Never more runs open at once than the bounds allow, by count or by estimated memory, and the same
 * result as merging all at once.
 */
class BoundedMergeTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 10, 1000})
    void boundsOpenRunsByCountAndKeepsTheResult(int maxRuns) {
        mergeAndCheck(new BoundedMerge.Bounds(maxRuns, Long.MAX_VALUE), Math.max(2, maxRuns));
    }

    /** Every run estimated at 10 spill files: a budget of 35 spill files holds three runs at most. */
    @ParameterizedTest
    @ValueSource(longs = {1, 35, 100, 1000})
    void boundsOpenRunsByMemoryAndKeepsTheResult(long units) {
        long unit = 10 * BoundedMerge.SPILL_READ_MEMORY;
        int expectedMaxOpen = (int) Math.max(2, Math.min(57, units / 10));
        mergeAndCheck(new BoundedMerge.Bounds(Integer.MAX_VALUE, units * unit / 10), expectedMaxOpen);
    }

    private void mergeAndCheck(BoundedMerge.Bounds bounds, int maxOpenAllowed) {
        TableSchema schema = SchemaValidation.firstSchema(
                "t",
                Schema.newBuilder()
                        .column("k", "BIGINT")
                        .column("v", "BIGINT")
                        .primaryKey("k")
                        .option("merge-engine", "partial-update")
                        .build(),
                0);
        MergeEngines engines = MergeEngines.of("t", schema);
        RecordComparator cmp = new RecordComparator(schema, -1);
        int[] open = {0};
        int[] maxOpen = {0};
        List<BoundedMerge.Run> runs = new ArrayList<>();
        Map<Long, Long> expected = new TreeMap<>();
        int numRuns = 57;
        long seq = 0;
        List<List<KeyValue>> data = new ArrayList<>();
        for (int r = 0; r < numRuns; r++) {
            List<KeyValue> run = new ArrayList<>();
            for (long k = r % 5; k < 40; k += 1 + (r % 3)) {
                run.add(new KeyValue(seq++, RowKind.INSERT, new Object[] {k, (long) r}));
            }
            data.add(run);
        }
        // newest first, like the LSM order; the newest run's value wins each key (partial-update, non-null)
        for (int r = numRuns - 1; r >= 0; r--) {
            List<KeyValue> run = data.get(r);
            for (KeyValue kv : run) {
                expected.putIfAbsent((Long) kv.row()[0], (Long) kv.row()[1]);
            }
            runs.add(new BoundedMerge.Run(
                    () -> counting(run.iterator(), open, maxOpen), 10 * BoundedMerge.SPILL_READ_MEMORY));
        }
        Map<Long, Long> got = new TreeMap<>();
        try (CloseableIterator<KeyValue> it = BoundedMerge.merge(
                runs, bounds, dir.toFile(), cmp, engines.functionFactory(), MergingIterator.Mode.FINAL)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                got.put((Long) kv.row()[0], (Long) kv.row()[1]);
            }
        }
        assertThat(got).isEqualTo(expected);
        assertThat(maxOpen[0]).isLessThanOrEqualTo(maxOpenAllowed);
        assertThat(open[0]).as("every run closed").isZero();
        assertThat(DirListing.of(dir)).as("spill files deleted").isEmpty();
    }

    private static CloseableIterator<KeyValue> counting(Iterator<KeyValue> it, int[] open, int[] maxOpen) {
        open[0]++;
        maxOpen[0] = Math.max(maxOpen[0], open[0]);
        return new CloseableIterator<>() {
            private boolean closed;

            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue next() {
                return it.next();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    open[0]--;
                }
            }
        };
    }
}
