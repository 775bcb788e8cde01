package io.strata.storage.compact;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import io.strata.storage.mergetree.LevelSortedRun;
import io.strata.storage.mergetree.SortedRun;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The picker is pure: runs in, unit out. Defaults: amplification 200%, size ratio 1%, trigger 5. */
class UniversalCompactionTest {
    private final UniversalCompaction picker = new UniversalCompaction(200, 1, 5);
    private int counter;

    private LevelSortedRun run(int level, long size) {
        DataFileMeta f = new DataFileMeta(
                "f" + (counter++),
                size,
                1,
                0,
                new Object[] {1L},
                new Object[] {2L},
                0,
                0,
                level,
                0,
                List.of(),
                0,
                FileSource.APPEND);
        return new LevelSortedRun(level, new SortedRun(List.of(f)));
    }

    private List<LevelSortedRun> runs(int[] levels, long[] sizes) {
        List<LevelSortedRun> out = new ArrayList<>();
        for (int i = 0; i < levels.length; i++) {
            out.add(run(levels[i], sizes[i]));
        }
        return out;
    }

    @Test
    void nothingBelowTheTrigger() {
        assertThat(picker.pick(6, runs(new int[] {0, 0, 0, 0}, new long[] {1, 1, 1, 1})))
                .isEmpty();
    }

    @Test
    void sizeAmplificationPicksEverythingToTheTopLevel() {
        // 4 newer runs of 100 over an oldest run of 100: 400% > 200%
        Optional<CompactUnit> u = picker.pick(6, runs(new int[] {0, 0, 0, 0, 5}, new long[] {100, 100, 100, 100, 100}));
        assertThat(u).isPresent();
        assertThat(u.get().reason()).isEqualTo(CompactReason.SIZE_AMPLIFICATION);
        assertThat(u.get().runs()).hasSize(5);
        assertThat(u.get().outputLevel()).isEqualTo(5);
    }

    @Test
    void sizeRatioPicksAdjacentSimilarRunsAndNeverOutputsLevelZero() {
        // oldest run is big (no amplification); the four small level-0 runs are similar
        Optional<CompactUnit> u = picker.pick(6, runs(new int[] {0, 0, 0, 0, 5}, new long[] {10, 10, 10, 10, 1000}));
        assertThat(u).isPresent();
        assertThat(u.get().reason()).isEqualTo(CompactReason.SIZE_RATIO);
        assertThat(u.get().runs()).hasSize(4);
        assertThat(u.get().outputLevel())
                .as("just below the first run not picked")
                .isEqualTo(4);
    }

    @Test
    void runCountForcesAPickWhenSizesDiffer() {
        // sizes grow too fast for size ratio; 7 runs > trigger 5 forces the 3 newest (+ ratio extension)
        Optional<CompactUnit> u = picker.pick(
                8, runs(new int[] {0, 1, 2, 3, 4, 5, 7}, new long[] {1, 10, 100, 1000, 10000, 100000, 10000000}));
        assertThat(u).isPresent();
        assertThat(u.get().reason()).isEqualTo(CompactReason.RUN_COUNT);
        assertThat(u.get().runs()).hasSize(3);
        assertThat(u.get().outputLevel()).isEqualTo(2);
    }

    @Test
    void levelZeroRunsAreTakenUpToTheFirstNonZeroLevel() {
        // size ratio stops after the first run, but the output may not be level 0: take level-0 runs to level 3
        CompactUnit u = picker.forcePickForSizeRatio(
                5, runs(new int[] {0, 0, 0, 3, 5}, new long[] {1, 100, 100, 100, 100000}), 1, CompactReason.RUN_COUNT);
        assertThat(u.runs()).extracting(LevelSortedRun::level).containsExactly(0, 0, 0, 3);
        assertThat(u.outputLevel()).isEqualTo(3);
    }

    @Test
    void everythingPickedMeansTheTopLevel() {
        CompactUnit u =
                picker.forcePickForSizeRatio(5, runs(new int[] {0, 0}, new long[] {1, 1}), 2, CompactReason.FULL);
        assertThat(u.outputLevel()).isEqualTo(5);
    }
}
