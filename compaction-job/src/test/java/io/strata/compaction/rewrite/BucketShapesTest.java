package io.strata.compaction.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The per-bucket gauges' state: the last shape of each bucket, for a bounded number of buckets. */
class BucketShapesTest {
    private static BucketShapes.Shape shape(int runsBefore) {
        return new BucketShapes.Shape(runsBefore, 1, runsBefore, 0);
    }

    @Test
    void keepsTheLastShapeOfEachTrackedBucketAndTracksNoMoreThanItsCapacity() {
        BucketShapes shapes = new BucketShapes(2);
        assertThat(shapes.record("t/p/0", shape(5))).isEqualTo(BucketShapes.Recorded.NEW_BUCKET);
        assertThat(shapes.record("t/p/1", shape(4))).isEqualTo(BucketShapes.Recorded.NEW_BUCKET);
        assertThat(shapes.record("t/p/0", shape(7)))
                .as("a tracked bucket compacted again")
                .isEqualTo(BucketShapes.Recorded.UPDATED);
        assertThat(shapes.get("t/p/0").sortedRunsBefore).isEqualTo(7);
        assertThat(shapes.get("t/p/1").level0FilesBefore).isEqualTo(4);

        // a new partition every day: buckets past the bound get no gauges, and nothing grows
        for (int day = 0; day < 1000; day++) {
            assertThat(shapes.record("t/day" + day + "/0", shape(3))).isEqualTo(BucketShapes.Recorded.NOT_TRACKED);
        }
        assertThat(shapes.size()).isEqualTo(2);
        assertThat(shapes.get("t/day5/0")).isNull();
        assertThat(shapes.record("t/p/1", shape(2))).isEqualTo(BucketShapes.Recorded.UPDATED);
        assertThat(shapes.get("t/p/1").sortedRunsBefore).isEqualTo(2);
    }
}
