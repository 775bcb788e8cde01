package io.strata.storage.changelog;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.compact.CompactPlan;
import io.strata.storage.compact.CompactResult;
import io.strata.storage.compact.CompactRewriter;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.compact.TableCompactor;
import io.strata.storage.data.KeyValue;
import io.strata.storage.data.PartitionPath;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.DataFilePathFactory;
import io.strata.storage.format.DataFileReader;
import io.strata.storage.manifest.EntryFilter;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TableModel.Mode;
import io.strata.storage.testutil.TestTables;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The full-compaction changelog made inside the compaction's merge ({@link FullChangelogMerge})
 * is record for record the one the separate pass ({@link ChangelogProducer}) makes of the same
 * plan, for every merge engine, with and without row deduplication.
 */
class FullChangelogMergeTest {
    @TempDir
    Path dir;

    private int tables;

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Mode m : List.of(
                Mode.DEDUPLICATE,
                Mode.DEDUPLICATE_SEQUENCE_FIELD,
                Mode.FIRST_ROW,
                Mode.PARTIAL_UPDATE_REMOVE,
                Mode.AGGREGATION,
                Mode.AGGREGATION_REMOVE,
                Mode.FIRST_ROW_SEQUENCE_FIELD,
                Mode.AGGREGATION_OTHER_FUNCTIONS)) {
            for (boolean dedup : List.of(false, true)) {
                out.add(Arguments.of(m, dedup, 700L + out.size()));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} row-deduplicate={1} seed={2}")
    @MethodSource("cases")
    void oneMergeGivesTheChangelogOfTheSeparatePass(Mode mode, boolean rowDedup, long seed) throws IOException {
        Map<String, String> options = new HashMap<>(TableModel.options(mode));
        options.put("changelog-producer", "full-compaction");
        options.put("changelog-producer.row-deduplicate", String.valueOf(rowDedup));
        options.put("write-only", "true");
        options.put("sort-spill-threshold", "3");
        options.put("target-file-size", "16 kb");
        FileStoreTable t = Catalog.open(dir.toString())
                .createTable("db", "t" + (tables++), TestTables.modelSchema(true, 2, options));
        Random rnd = new Random(seed);
        TableCompactor compactor = t.newCompactor();
        int compared = 0;
        long compactions = 0;
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int commit = 1; commit <= 12; commit++) {
                for (int i = 0, n = rnd.nextInt(80); i < n; i++) {
                    w.write(TableModel.randomRow(rnd, 30));
                }
                c.commit(commit, w.prepareCommit());
                if (rnd.nextInt(3) != 0) {
                    continue;
                }
                for (CompactPlan plan : compactor.plan(CompactStrategy.FULL, EntryFilter.ALL)) {
                    DataFilePathFactory paths = new DataFilePathFactory(
                            t.paths(), PartitionPath.of(t.schema().partitionKeys(), plan.partition()), plan.bucket());
                    CompactResult inMerge;
                    try (CompactRewriter rewriter = new CompactRewriter(t.context())) {
                        inMerge = rewriter.rewrite(plan);
                    }
                    List<DataFileMeta> separate =
                            new ChangelogProducer(t.context(), null).produce(plan.levels(), paths);
                    assertThat(rows(t, paths, inMerge.changelog()))
                            .as("changelog of %s", plan)
                            .isEqualTo(rows(t, paths, separate));
                    if (plan.sections().stream().allMatch(CompactPlan.Section::rewrite)) {
                        compared++; // the rewriter took the one-merge path
                    }
                }
                compactor.compact(CompactStrategy.FULL, "compactor", ++compactions);
            }
        }
        assertThat(compared).isPositive();
    }

    private static List<String> rows(FileStoreTable t, DataFilePathFactory paths, List<DataFileMeta> files) {
        List<String> out = new ArrayList<>();
        for (DataFileMeta f : files) {
            try (DataFileReader r = DataFileReader.of(
                            t.fileIO(), t.formatConfig().conf(), paths.toPath(f.fileName()), t.schema())
                    .fileSize(f.fileSize())
                    .open()) {
                while (r.hasNext()) {
                    KeyValue kv = r.next();
                    out.add(kv.kind() + " " + kv.sequence() + " " + Arrays.deepToString(kv.row()));
                }
            }
        }
        return out;
    }
}
