package io.strata.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.workload.StandardWorkload;
import io.strata.storage.data.GenericRow;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WideStreamsTest {
    /** Five commits: an odd count, so the last stream's last commit has no partner to swap with. */
    private static final StandardWorkload WORKLOAD = new StandardWorkload(5, 2_000, 500, 0.05, 42);

    @Test
    void everyUpsertIsDeliveredOnceAndTheModelIsWhatOrderingByTsGives() {
        for (WideStreams.Ordering ordering : WideStreams.Ordering.values()) {
            WideStreams streams = new WideStreams(WORKLOAD.restart(), ordering);
            int width = streams.columns().size();
            // An independent model: fold the rows as delivered, each set column kept from the row with the highest ts.
            Map<Long, Object[]> table = new HashMap<>();
            Map<Long, long[]> orderOf = new HashMap<>();
            long[] delivered = {0};
            int[] commits = {0};
            streams.forEachCommit(rows -> {
                commits[0]++;
                for (GenericRow r : rows) {
                    delivered[0]++;
                    Object[] f = r.fields();
                    long id = (Long) f[0];
                    Object[] acc = table.computeIfAbsent(id, k -> new Object[width]);
                    long[] ord = orderOf.computeIfAbsent(id, k -> new long[width]);
                    acc[0] = id;
                    long ts = rowTs(ordering, f);
                    for (int i = 1; i < width; i++) {
                        if (f[i] != null && (acc[i] == null || ts >= ord[i])) {
                            acc[i] = f[i];
                            ord[i] = ts;
                        }
                    }
                }
            });
            assertThat(commits[0]).isEqualTo(5 + 3);
            assertThat(delivered[0]).as("stream rows = the workload's upserts").isEqualTo(upserts());

            WideStreams.Model.Comparison check = streams.expected().compare();
            table.values().forEach(row -> streams.addTo(check, row));

            assertThat(check.result().correct())
                    .as("%s: %s", ordering, check.result())
                    .isTrue();
            assertThat(check.result().rowsRead()).isEqualTo(WORKLOAD.restart().keySpace());
        }
    }

    @Test
    void theModelTellsAWrongValueApart() {
        WideStreams streams = new WideStreams(WORKLOAD.restart(), WideStreams.Ordering.SEQUENCE_FIELD);
        WideStreams.Model model = streams.expected();
        WideStreams.Model.Comparison check = model.compare();
        check.add(7, 12345);

        assertThat(check.result().wrongRows()).isEqualTo(1);
        assertThat(check.result().missingRows()).isEqualTo(model.rows() - 1);
        assertThat(check.result().correct()).isFalse();
    }

    @Test
    void paimonWithSequenceGroupsHoldsTheModel(@TempDir Path dir) throws Exception {
        WideStreams streams = new WideStreams(WORKLOAD.restart(), WideStreams.Ordering.SEQUENCE_GROUPS);

        PartialUpdateBenchmark.Run run = PartialUpdateBenchmark.paimon(dir, streams, streams.expected());

        assertThat(run.streamRows()).isEqualTo(upserts());
        assertThat(run.verdict().correct()).as("%s", run.verdict()).isTrue();
    }

    private static long rowTs(WideStreams.Ordering ordering, Object[] f) {
        if (ordering == WideStreams.Ordering.SEQUENCE_FIELD) {
            return (Long) f[f.length - 1];
        }
        for (int ts = 5; ts < f.length; ts += 5) { // groups of four values and their ts, after the id
            if (f[ts] != null) {
                return (Long) f[ts];
            }
        }
        throw new AssertionError("a stream row without its group's ts");
    }

    private static long upserts() {
        StandardWorkload w = WORKLOAD.restart();
        long[] n = {0};
        for (int c = 0; c < w.commits(); c++) {
            w.forEachRowOfCommit(c, r -> n[0] += r.kind().isRetract() ? 0 : 1);
        }
        return n[0];
    }
}
