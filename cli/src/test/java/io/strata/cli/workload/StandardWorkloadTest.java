package io.strata.cli.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class StandardWorkloadTest {

    /** The table of WORKLOAD.md, "Checks". */
    static Stream<Arguments> documentedResults() {
        return Stream.of(
                Arguments.of(StandardWorkload.large(), 805_571L, 5289494773351999041L),
                Arguments.of(StandardWorkload.small(), 40_267L, -1354564158957153659L));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("documentedResults")
    void modelGivesTheDocumentedCheck(StandardWorkload workload, long liveRows, long checksum) {
        WorkloadCheck check = ExpectedTable.of(workload);

        assertThat(check).isEqualTo(new WorkloadCheck(liveRows, checksum));
        assertThat(workload.liveCount()).isEqualTo(liveRows);
        assertThat(workload.nextCommit()).isEqualTo(workload.commits());
    }

    @Test
    void scanOfANaiveTableGivesTheSameCheckAsTheModel() {
        StandardWorkload workload = StandardWorkload.small();
        Map<Long, GenericRow> table = new HashMap<>();
        for (int c = 0; c < workload.commits(); c++) {
            workload.forEachRowOfCommit(c, row -> {
                Long id = (Long) row.get(WorkloadSchema.ID);
                if (row.kind() == RowKind.DELETE) {
                    table.remove(id);
                } else {
                    table.put(id, row);
                }
            });
        }
        WorkloadChecksum scan = new WorkloadChecksum();
        table.values().forEach(r -> scan.add((Long) r.get(WorkloadSchema.ID), (Long) r.get(WorkloadSchema.TS)));

        assertThat(scan.result()).isEqualTo(new WorkloadCheck(40_267L, -1354564158957153659L));
    }

    @Test
    void rowsHaveTheDocumentedShape() {
        StandardWorkload workload = new StandardWorkload(2, 1_000, 300, 0.05, 7);
        for (int c = 0; c < workload.commits(); c++) {
            List<GenericRow> rows = new ArrayList<>();
            workload.forEachRowOfCommit(c, rows::add);

            assertThat(rows).hasSize(1_000);
            for (int j = 0; j < rows.size(); j++) {
                GenericRow row = rows.get(j);
                assertThat(row.arity()).isEqualTo(WorkloadSchema.COLUMNS.size());
                long id = (Long) row.get(WorkloadSchema.ID);
                assertThat(id).isBetween(0L, 299L);
                if ((j + 1) % 20 == 0) {
                    assertThat(row.kind()).isEqualTo(RowKind.DELETE);
                    for (int f = 1; f < row.arity(); f++) {
                        assertThat(row.get(f)).isNull();
                    }
                } else {
                    assertThat(row.kind()).isEqualTo(RowKind.INSERT);
                    assertThat((String) row.get(WorkloadSchema.NAME))
                            .hasSize(16)
                            .matches("[A-Za-z0-9]+");
                    assertThat((Double) row.get(WorkloadSchema.PRICE)).isBetween(0.0, 1000.0);
                    assertThat((Integer) row.get(WorkloadSchema.QTY)).isBetween(0, 999);
                    assertThat(row.get(WorkloadSchema.TS)).isEqualTo((long) c * 1_000 + j);
                    assertThat((String) row.get(WorkloadSchema.PAYLOAD))
                            .hasSize(64)
                            .matches("[A-Za-z0-9]+");
                }
            }
        }
    }

    @Test
    void firstDeleteSlotWithAnEmptyLiveSetIsAnUpsert() {
        StandardWorkload workload = new StandardWorkload(1, 3, 10, 1.0, 1);
        List<GenericRow> rows = new ArrayList<>();
        workload.forEachRowOfCommit(0, rows::add);

        assertThat(rows).extracting(GenericRow::kind).containsExactly(RowKind.INSERT, RowKind.DELETE, RowKind.INSERT);
        assertThat(rows.get(1).get(WorkloadSchema.ID)).isEqualTo(rows.get(0).get(WorkloadSchema.ID));
    }

    @Test
    void restartReplaysTheSameRows() {
        StandardWorkload first = new StandardWorkload(1, 500, 100, 0.05, 3);
        List<GenericRow> a = new ArrayList<>();
        first.forEachRowOfCommit(0, a::add);
        List<GenericRow> b = new ArrayList<>();
        first.restart().forEachRowOfCommit(0, b::add);

        assertThat(b).isEqualTo(a);
    }

    @Test
    void commitsComeOnceEachInOrder() {
        StandardWorkload workload = new StandardWorkload(2, 10, 100, 0.05, 42);

        assertThatThrownBy(() -> workload.forEachRowOfCommit(1, r -> {}))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the next is 0");
        workload.forEachRowOfCommit(0, r -> {});
        assertThatThrownBy(() -> workload.forEachRowOfCommit(0, r -> {})).isInstanceOf(IllegalStateException.class);
        workload.forEachRowOfCommit(1, r -> {});
        assertThatThrownBy(() -> workload.forEachRowOfCommit(2, r -> {})).isInstanceOf(IllegalStateException.class);
    }
}
