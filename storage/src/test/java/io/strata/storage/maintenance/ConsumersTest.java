package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.snapshot.ConsumerManager;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CloseableIterator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A consumer's position holds expiration back until it has read, and an abandoned one stops holding it. */
class ConsumersTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));
    private final Random rnd = new Random(3);
    private long identifier;

    private FileStoreTable create() {
        return Catalog.open(dir.resolve("wh").toString())
                .withClock(clock)
                .createTable(
                        "db",
                        "t",
                        TestTables.modelSchema(false, 1, Map.of("write-only", "true", "changelog-producer", "input")));
    }

    private void append(FileStoreTable t, int commits) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int i = 0; i < commits; i++) {
                for (int r = 0; r < 20; r++) {
                    w.write(TableModel.randomRow(rnd, 30));
                }
                c.commit(++identifier, w.prepareCommit());
            }
        }
    }

    private static List<GenericRow> drain(CloseableIterator<GenericRow> it) {
        List<GenericRow> rows = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        }
        return rows;
    }

    private static ExpireResult expireAll(FileStoreTable t, Map<String, String> more) {
        Map<String, String> o = new HashMap<>(Map.of(
                "snapshot.num-retained.min", "1", "snapshot.time-retained", "0 s", "snapshot.expire.limit", "100"));
        o.putAll(more);
        return t.copyWithOptions(o).newSnapshotExpiration().expire();
    }

    @Test
    void aConsumerKeepsWhatItHasNotReadAndReadsEveryChangeOnce() {
        FileStoreTable t = create();
        append(t, 8);
        List<GenericRow> all = drain(t.newIncrementalRead().read(0, 8));

        List<GenericRow> first = drain(t.newIncrementalRead().readAs("downstream", 3));
        assertThat(t.context().consumerManager().get("downstream"))
                .map(ConsumerManager.Consumer::nextSnapshot)
                .contains(4L);
        append(t, 2);
        clock.advance(Duration.ofHours(2));

        ExpireResult r = expireAll(t, Map.of());

        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(4);
        assertThat(r.plan().heldBackBy()).isEqualTo(ExpirePlan.HeldBack.CONSUMER);
        assertThat(r.plan().heldBackDetail()).contains("consumer 'downstream' reads snapshot 4 next");
        List<GenericRow> rest = drain(t.newIncrementalRead().readAs("downstream", 8));
        List<GenericRow> both = new ArrayList<>(first);
        both.addAll(rest);
        assertThat(both).as("every change of 1..8 once, in order").isEqualTo(all);
        assertThat(drain(t.newIncrementalRead().readAs("downstream", 10))).hasSize(40);

        expireAll(t, Map.of());
        assertThat(t.snapshotManager().earliestId().getAsLong())
                .as("it has read everything")
                .isEqualTo(10);
    }

    @Test
    void anAbandonedConsumerIsDroppedAfterItsExpirationTime() {
        FileStoreTable t = create();
        append(t, 5);
        drain(t.newIncrementalRead().readAs("gone", 2));
        clock.advance(Duration.ofMinutes(30));
        ExpireResult held = expireAll(t, Map.of("consumer.expiration-time", "1 h"));
        assertThat(held.plan().heldBackBy()).isEqualTo(ExpirePlan.HeldBack.CONSUMER);
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(3);
        clock.advance(Duration.ofMinutes(31));
        expireAll(t, Map.of("consumer.expiration-time", "1 h"));
        assertThat(t.context().consumerManager().list()).isEmpty();
        assertThat(t.snapshotManager().earliestId().getAsLong()).isEqualTo(5);
    }

    @Test
    void aConsumerBehindTheEarliestSnapshotIsToldWhereHistoryStarts() {
        FileStoreTable t = create();
        append(t, 5);
        clock.advance(Duration.ofHours(2));
        expireAll(t, Map.of());
        t.context().consumerManager().record("late", 2, clock.millis());
        assertThatThrownBy(() -> drain(t.newIncrementalRead().readAs("late", 5)))
                .hasMessageContaining("the changes of snapshot 2 are no longer retained; history starts at snapshot 5");
        assertThatThrownBy(() -> t.context().consumerManager().record("a/b", 1, 0))
                .hasMessageContaining("not a consumer id");
        assertThat(drain(t.newIncrementalRead().readAs("new-one", 5)))
                .as("a new consumer starts at the earliest")
                .hasSize(20);
    }
}
