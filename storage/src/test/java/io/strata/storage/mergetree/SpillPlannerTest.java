package io.strata.storage.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.storage.mergetree.SpillPlanner.Window;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SpillPlannerTest {
    private static final long MB = 1 << 20;
    private static final long SPILL = BoundedMerge.SPILL_READ_MEMORY;

    @Test
    void runsThatFitAreMergedAtOnce() {
        long[] thirteenSmallRuns = new long[13];
        Arrays.fill(thirteenSmallRuns, 3 * MB);
        assertThat(SpillPlanner.nextRound(thirteenSmallRuns, Integer.MAX_VALUE, 256 * MB, SPILL))
                .isEmpty();
    }

    @Test
    void overTheCountOnlyTheFewestRunsNeededAreSpilled() {
        long[] runs = new long[13];
        Arrays.fill(runs, MB);
        // 13 runs, at most 10 open: merging 4 adjacent runs leaves 9 + 1 spill = 10
        List<Window> round = SpillPlanner.nextRound(runs, 10, Long.MAX_VALUE, SPILL);
        assertThat(round).hasSize(1);
        assertThat(round.get(0).size()).isEqualTo(4);
    }

    @Test
    void overTheMemoryTheCheapestWindowIsSpilledNotTheBigLevels() {
        // ten small level-0 runs, then two large levels: the small ones go to a spill file
        long[] runs = {
            2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 2 * MB, 100 * MB, 128 * MB
        };
        List<Window> round = SpillPlanner.nextRound(runs, Integer.MAX_VALUE, 240 * MB, SPILL);
        assertThat(round).hasSize(1);
        Window w = round.get(0);
        assertThat(w.to()).isLessThanOrEqualTo(10);
        long rest = SPILL;
        for (int i = 0; i < runs.length; i++) {
            if (i < w.from() || i >= w.to()) {
                rest += runs[i];
            }
        }
        assertThat(rest).isLessThanOrEqualTo(240 * MB);
        assertThat(w.size()).as("the fewest small runs that make the rest fit").isEqualTo(5);
    }

    @Test
    void twoRunsAreAlwaysMergedWhateverTheirSize() {
        assertThat(SpillPlanner.nextRound(new long[] {500 * MB, 600 * MB}, 2, MB, SPILL))
                .isEmpty();
        // three huge runs: two of them are pre-merged, then the spill and the third fit the floor
        List<Window> round = SpillPlanner.nextRound(new long[] {500 * MB, 600 * MB, 700 * MB}, 10, MB, SPILL);
        assertThat(round).hasSize(1);
        assertThat(round.get(0).size()).isEqualTo(2);
    }

    /** Whatever the sizes and bounds, rounds end, windows are adjacent and disjoint, and the last round fits. */
    @Test
    void randomRunsAlwaysEndWithinTheBounds() {
        long seed = 20261206L;
        Random rnd = new Random(seed);
        for (int c = 0; c < 2_000; c++) {
            int n = 1 + rnd.nextInt(300);
            long[] runs = new long[n];
            for (int i = 0; i < n; i++) {
                runs[i] = 1 + (long) (rnd.nextDouble() * rnd.nextDouble() * 300 * MB);
            }
            int maxRuns = rnd.nextBoolean() ? Integer.MAX_VALUE : 2 + rnd.nextInt(20);
            long maxMemory = 1 + rnd.nextInt(512) * MB;
            String where =
                    "seed " + seed + " case " + c + ": " + n + " runs, maxRuns " + maxRuns + ", maxMemory " + maxMemory;
            long[] pending = runs;
            int rounds = 0;
            List<Window> round;
            while (!(round = SpillPlanner.nextRound(pending, maxRuns, maxMemory, SPILL)).isEmpty()) {
                assertThat(++rounds).as(where).isLessThan(n);
                List<Long> next = new ArrayList<>();
                int at = 0;
                for (Window w : round) {
                    assertThat(w.from()).as(where).isGreaterThanOrEqualTo(at);
                    assertThat(w.size()).as(where).isGreaterThanOrEqualTo(2);
                    long windowMemory = 0;
                    for (int i = w.from(); i < w.to(); i++) {
                        windowMemory += pending[i];
                    }
                    assertThat(w.size() == 2 || (w.size() <= maxRuns && windowMemory <= maxMemory))
                            .as(where + ": a spilled window fits the bounds")
                            .isTrue();
                    for (int i = at; i < w.from(); i++) {
                        next.add(pending[i]);
                    }
                    next.add(SPILL);
                    at = w.to();
                }
                for (int i = at; i < pending.length; i++) {
                    next.add(pending[i]);
                }
                pending = next.stream().mapToLong(Long::longValue).toArray();
            }
            long total = Arrays.stream(pending).sum();
            assertThat(pending.length <= 2 || (pending.length <= maxRuns && total <= maxMemory))
                    .as(where + ": the final merge fits")
                    .isTrue();
        }
    }
}
