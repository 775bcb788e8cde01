package io.strata.storage.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.commit.TableCommit;
import io.strata.storage.data.GenericRow;
import io.strata.storage.snapshot.AutoTags;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.Catalog;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.table.TableWrite;
import io.strata.storage.testutil.ManualClock;
import io.strata.storage.testutil.TableModel;
import io.strata.storage.testutil.TestTables;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tag.automatic-creation=process-time: one tag per ended period, on its last snapshot, never twice. */
class AutoTagsTest {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T22:00:00Z"));
    private final TableModel model = new TableModel(TableModel.Mode.DEDUPLICATE);
    private final Random rnd = new Random(8);
    private long identifier;

    private FileStoreTable create(Map<String, String> options) {
        Map<String, String> o = new HashMap<>(Map.of("write-only", "true", "tag.automatic-creation", "process-time"));
        o.putAll(options);
        return Catalog.open(dir.resolve("wh").toString())
                .withClock(clock)
                .createTable("db", "t", TestTables.modelSchema(false, 1, o));
    }

    private Map<List<Object>, List<Object>> append(FileStoreTable t) {
        try (TableWrite w = t.newWrite("w");
                TableCommit c = t.newCommit("w")) {
            for (int r = 0; r < 20; r++) {
                GenericRow row = TableModel.randomRow(rnd, 30);
                model.apply(row);
                w.write(row);
            }
            c.commit(++identifier, w.prepareCommit());
        }
        return new HashMap<>(model.contents());
    }

    private static List<String> tagNames(FileStoreTable t) {
        return t.tags().list().stream().map(Tag::name).toList();
    }

    @Test
    void theFirstCommitAfterADayTagsThatDaysLastSnapshotOnce() {
        FileStoreTable t = create(Map.of());
        append(t);
        clock.advance(Duration.ofHours(1));
        Map<List<Object>, List<Object>> endOfDec1 = append(t); // 23:00, snapshot 2
        assertThat(tagNames(t)).as("December 1st has not ended").isEmpty();

        clock.advance(Duration.ofHours(2)); // Dec 2nd, 01:00
        append(t); // snapshot 3 tags snapshot 2 as 2026-12-01
        append(t);

        assertThat(t.tags().list()).singleElement().satisfies(tag -> {
            assertThat(tag.name()).isEqualTo("2026-12-01");
            assertThat(tag.snapshot().id()).isEqualTo(2);
        });
        assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag("2026-12-01"))))
                .isEqualTo(endOfDec1);
    }

    @Test
    void hourlyTagsKeepAtMostTheRetainedNumberAndNoTagPredatesTheTable() {
        FileStoreTable t = create(Map.of("tag.creation-period", "hourly", "tag.num-retained-max", "2"));
        for (int h = 0; h < 5; h++) {
            append(t);
            clock.advance(Duration.ofHours(1));
        }
        append(t);
        assertThat(tagNames(t)).containsExactly("2026-12-02-01", "2026-12-02-02");
        assertThat(tagNames(t))
                .as("no tag for an hour that ended before the first commit")
                .doesNotContain("2026-12-01-21");
    }

    @Test
    void aDelayWaitsForLateCommitsOfThePeriod() {
        FileStoreTable t = create(Map.of("tag.creation-delay", "30 min"));
        append(t);
        clock.advance(Duration.ofHours(2).plusMinutes(10)); // 00:10 on Dec 2nd: within the delay
        append(t);
        assertThat(tagNames(t)).isEmpty();
        clock.advance(Duration.ofMinutes(30));
        append(t);
        assertThat(t.tags().list()).singleElement().satisfies(tag -> {
            assertThat(tag.name()).isEqualTo("2026-12-01");
            assertThat(tag.snapshot().id())
                    .as("the last snapshot committed on Dec 1st")
                    .isEqualTo(1);
        });
    }

    @Test
    void anIdleTableGetsItsDueTagWithoutACommitAndOldTagsGoBeyondTheRetainedNumber() {
        FileStoreTable t = create(Map.of("tag.creation-period", "hourly", "tag.num-retained-max", "2"));
        Map<List<Object>, List<Object>> at22 = append(t); // 22:00, snapshot 1
        AutoTags.Result early = t.tags().createAutomaticTag();
        assertThat(early.created()).isEmpty();
        assertThat(early.reason()).contains("no snapshot committed before 2026-12-01T22:00:00Z");

        clock.advance(Duration.ofHours(1).plusMinutes(5)); // 23:05, no commit since 22:00
        AutoTags.Result due = t.tags().createAutomaticTag();
        assertThat(due.created()).hasValueSatisfying(tag -> {
            assertThat(tag.name()).isEqualTo("2026-12-01-22");
            assertThat(tag.snapshot().id()).isEqualTo(1);
        });
        assertThat(TableModel.toContents(TestTables.scan(t.newReadBuilder().withTag("2026-12-01-22"))))
                .isEqualTo(at22);
        AutoTags.Result twice = t.tags().createAutomaticTag();
        assertThat(twice.created()).isEmpty();
        assertThat(twice.reason()).isEqualTo("tag '2026-12-01-22' exists (on snapshot 1)");

        for (int h = 0; h < 3; h++) {
            clock.advance(Duration.ofHours(1));
            assertThat(t.tags().createAutomaticTag().created()).isPresent();
        }
        assertThat(tagNames(t)).containsExactly("2026-12-02-00", "2026-12-02-01");
        t.tags().create("2026-11-30", Optional.empty(), Optional.empty());
        AutoTags.Result pruned = t.tags().createAutomaticTag();
        assertThat(pruned.created()).as("this hour's tag exists").isEmpty();
        assertThat(pruned.deleted())
                .as("beyond tag.num-retained-max even without a new tag")
                .containsExactly("2026-11-30");
    }

    @Test
    void withoutAutomaticCreationNoTagIsCreated() {
        FileStoreTable t = create(Map.of("tag.automatic-creation", "none"));
        append(t);
        clock.advance(Duration.ofDays(1));
        AutoTags.Result r = t.tags().createAutomaticTag();
        assertThat(r.created()).isEmpty();
        assertThat(r.reason()).isEqualTo("tag.automatic-creation is none");
        assertThat(tagNames(t)).isEmpty();
    }
}
