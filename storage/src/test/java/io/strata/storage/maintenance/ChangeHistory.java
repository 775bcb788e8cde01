package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.GenericRow;
import io.strata.storage.read.IncrementalRead;
import io.strata.storage.snapshot.SnapshotNotFoundException;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.util.CloseableIterator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;

/**
 * The model of a table's change history with {@code changelog-producer=input}: the changes each
 * snapshot committed (the rows its writer wrote, in write order; none for a compaction or a
 * partition drop), when it was committed, and the first snapshot whose changes are retained. Checks
 * incremental reads against it change by change (row kind and values, in order per key), and checks
 * that an expiration let go only history that changelog retention and the consumer let go.
 */
final class ChangeHistory {
    /** One expiration run's {@code changelog.num-retained.min/max} and {@code changelog.time-retained}. */
    record Retention(int min, int max, Duration time) {
        /** Whether the changes of snapshot {@code id}, committed at {@code committedMillis}, must stay. */
        boolean keeps(long id, long latest, long committedMillis, long nowMillis) {
            return id > latest - min || (id > latest - max && committedMillis >= nowMillis - time.toMillis());
        }
    }

    private final Map<Long, List<GenericRow>> changesOf = new HashMap<>();
    private final Map<Long, Long> committedAt = new HashMap<>();
    /** The first snapshot whose changes are retained; 0 before the first snapshot. */
    private long start;

    long start() {
        return start;
    }

    /** Snapshot {@code id} was committed at {@code millis} with {@code changes}. */
    void committed(long id, List<GenericRow> changes, long millis) {
        changesOf.put(id, List.copyOf(changes));
        committedAt.put(id, millis);
        if (start == 0) {
            start = id;
        }
    }

    /** The snapshots after {@code target} are gone; their ids are taken again by the next commits. */
    void rolledBackTo(long target) {
        changesOf.keySet().removeIf(id -> id > target);
        committedAt.keySet().removeIf(id -> id > target);
    }

    /** The changes of snapshots {@code fromExclusive + 1 .. toInclusive}, in commit order. */
    List<GenericRow> changes(long fromExclusive, long toInclusive) {
        List<GenericRow> out = new ArrayList<>();
        for (long id = fromExclusive + 1; id <= toInclusive; id++) {
            out.addAll(changesOf.get(id));
        }
        return out;
    }

    /**
     * What one expiration run saw and did.
     *
     * @param retention the run's changelog retention
     * @param limit its {@code snapshot.expire.limit}
     * @param consumerFrom the consumer's next snapshot; {@code Long.MAX_VALUE} before its first read
     * @param startAfter where history starts after the run
     */
    record Expiration(
            Retention retention,
            int limit,
            long latest,
            long nowMillis,
            long consumerFrom,
            long earliestBefore,
            long earliestAfter,
            long startAfter,
            long changelogsExpired) {}

    /**
     * An expiration run moved the start of history: every snapshot whose changes went was one the
     * run's changelog retention and the consumer let go, the run expired as many kept changelogs
     * as it says, and a kept changelog that stays is one retention or the consumer holds, or the
     * run reached its limit. This model's start moves with it.
     */
    void expired(Expiration run, String what) {
        assertThat(run.startAfter)
                .as("%s: history only shrinks from its start", what)
                .isGreaterThanOrEqualTo(start);
        for (long id = start; id < run.startAfter; id++) {
            assertThat(run.retention.keeps(id, run.latest, committedAt.get(id), run.nowMillis))
                    .as("%s: the changes of snapshot %d went; %s keeps them", what, id, run.retention)
                    .isFalse();
            assertThat(id)
                    .as("%s: the changes of snapshot %d went; the consumer reads %d next", what, id, run.consumerFrom)
                    .isLessThan(run.consumerFrom);
        }
        long keptExpired = start < run.earliestBefore ? Math.min(run.startAfter, run.earliestBefore) - start : 0;
        assertThat(run.changelogsExpired)
                .as(
                        "%s: kept changelogs expired (history %d.. -> %d.., earliest snapshot was %d)",
                        what, start, run.startAfter, run.earliestBefore)
                .isEqualTo(keptExpired);
        if (run.startAfter < run.earliestAfter) {
            long s = run.startAfter;
            assertThat(run.retention.keeps(s, run.latest, committedAt.get(s), run.nowMillis)
                            || s >= run.consumerFrom
                            || run.changelogsExpired == run.limit)
                    .as(
                            "%s: the kept changelog of snapshot %d stays, though %s, the consumer (%d) and the"
                                    + " limit (%d) let it go",
                            what, s, run.retention, run.consumerFrom, run.limit)
                    .isTrue();
        }
        start = run.startAfter;
    }

    /**
     * The table's history starts where this model's does and reads the model's changes, every
     * change from each retained changelog of an expired snapshot and from the earliest snapshot,
     * from the consumer's position and from a later start {@code pick} draws; a read from before
     * the start fails naming it.
     *
     * @param consumerNext the consumer's next snapshot; null before its first read
     * @return whether the history read includes kept changelogs of expired snapshots
     */
    boolean checkReads(FileStoreTable t, Long consumerNext, Random pick, String what) {
        IncrementalRead read = t.newIncrementalRead();
        long latest = t.snapshotManager().latestId().getAsLong();
        long earliest = t.snapshotManager().earliestId().getAsLong();
        assertThat(read.historyStart()).as("%s: history start", what).isEqualTo(OptionalLong.of(start));
        for (long from = start; from <= earliest; from++) {
            assertSameChanges(
                    read.read(from - 1, latest),
                    changes(from - 1, latest),
                    what + ": every change from " + from
                            + (from < earliest ? " (a kept changelog)" : " (the earliest snapshot)"));
        }
        if (consumerNext != null && consumerNext <= latest) {
            assertSameChanges(
                    read.read(consumerNext - 1, latest),
                    changes(consumerNext - 1, latest),
                    what + ": the changes from the consumer's position " + consumerNext);
        }
        if (latest > earliest) {
            long from = earliest + 1 + pick.nextInt((int) (latest - earliest));
            assertSameChanges(
                    read.read(from - 1, latest), changes(from - 1, latest), what + ": the changes from " + from);
        }
        if (start > 1) {
            long before = 1 + pick.nextInt((int) (start - 1));
            assertThatThrownBy(() -> drain(read.read(before - 1, latest)))
                    .as("%s: a read from snapshot %d, before history starts", what, before)
                    .isInstanceOf(SnapshotNotFoundException.class)
                    .hasMessageContaining("the changes of snapshot " + before
                            + " are no longer retained; history starts at snapshot " + start);
        }
        return start < earliest;
    }

    /** {@code got} has exactly {@code expected}'s changes: the same row kinds and values, in the same order per key. */
    static void assertSameChanges(CloseableIterator<GenericRow> got, List<GenericRow> expected, String what) {
        assertThat(perKey(drain(got))).as(what).isEqualTo(perKey(expected));
    }

    /** The changes of each key (dt, id), in order. */
    private static Map<List<Object>, List<String>> perKey(List<GenericRow> changes) {
        Map<List<Object>, List<String>> out = new LinkedHashMap<>();
        for (GenericRow r : changes) {
            out.computeIfAbsent(List.of(r.get(0), r.get(1)), k -> new ArrayList<>())
                    .add(r.toString());
        }
        return out;
    }

    static List<GenericRow> drain(CloseableIterator<GenericRow> it) {
        List<GenericRow> rows = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                rows.add(it.next());
            }
        }
        return rows;
    }
}
