package io.strata.storage.testutil;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.table.FileStoreTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Structural invariants of a table's LSM trees, checked by the model-based tests. */
public final class LsmInvariants {
    private LsmInvariants() {}

    private static List<ManifestEntry> live(FileStoreTable t) {
        return t.snapshotManager()
                .latest()
                .map(s -> t.manifests().scanner().scan(s.baseManifestList(), EntryFilter.ALL))
                .orElse(List.of());
    }

    /** Within a bucket, files on the same level >= 1 never overlap in key range. */
    public static void check(FileStoreTable t) {
        Comparator<Object[]> keys =
                ValueComparators.forTuple(t.schema().typesOf(t.schema().primaryKeyIndexes()));
        Map<List<Object>, List<DataFileMeta>> runs = new HashMap<>();
        for (ManifestEntry e : live(t)) {
            if (e.file().level() > 0) {
                List<Object> k = new ArrayList<>(Arrays.asList(e.partition()));
                k.add(e.bucket());
                k.add(e.file().level());
                runs.computeIfAbsent(k, x -> new ArrayList<>()).add(e.file());
            }
        }
        for (Map.Entry<List<Object>, List<DataFileMeta>> r : runs.entrySet()) {
            List<DataFileMeta> files = r.getValue();
            files.sort((a, b) -> keys.compare(a.minKey(), b.minKey()));
            for (int i = 1; i < files.size(); i++) {
                assertThat(keys.compare(files.get(i - 1).maxKey(), files.get(i).minKey()))
                        .as("files %s and %s overlap on %s", files.get(i - 1), files.get(i), r.getKey())
                        .isLessThan(0);
            }
        }
    }

    /** Row and delete-row counts in the manifests equal what the files hold; min/max keys too. */
    public static void checkRowCounts(FileStoreTable t) {
        Comparator<Object[]> keys =
                ValueComparators.forTuple(t.schema().typesOf(t.schema().primaryKeyIndexes()));
        int[] keyIdx = t.schema().primaryKeyIndexes();
        for (ManifestEntry e : live(t)) {
            DataFileMeta f = e.file();
            long rows = 0;
            long deletes = 0;
            Object[] first = null;
            Object[] last = null;
            try (DataFileReader r = DataFileReader.of(
                            t.fileIO(),
                            t.formatConfig().conf(),
                            t.paths()
                                    .dataFile(
                                            PartitionPath.of(t.schema().partitionKeys(), e.partition()),
                                            e.bucket(),
                                            f.fileName()),
                            t.schema())
                    .fileSize(f.fileSize())
                    .open()) {
                while (r.hasNext()) {
                    KeyValue kv = r.next();
                    rows++;
                    if (kv.kind().isRetract()) {
                        deletes++;
                    }
                    Object[] k = ValueComparators.project(kv.row(), keyIdx);
                    if (first == null) {
                        first = k;
                    }
                    last = k;
                }
            }
            assertThat(rows).as("rows of %s", f).isEqualTo(f.rowCount());
            assertThat(deletes).as("delete rows of %s", f).isEqualTo(f.deleteRowCount());
            assertThat(keys.compare(first, f.minKey())).as("min key of %s", f).isZero();
            assertThat(keys.compare(last, f.maxKey())).as("max key of %s", f).isZero();
        }
    }
}
