package io.strata.compaction.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.BucketId;
import org.junit.jupiter.api.Test;

/** A work's strategy travels by name (splits, checkpoints): a name this build does not know is named with the known ones. */
class CompactionWorkStrategyTest {

    @Test
    void anUnknownStrategyNameNamesTheValueAndTheKnownOnes() throws Exception {
        CompactionWork w = new CompactionWork("db.t", BucketId.of(new Object[0], 0), 1, CompactStrategy.LOOKUP);
        CompactionWorkSerializer s = new CompactionWorkSerializer();
        assertThat(s.deserialize(s.getVersion(), s.serialize(w)).strategyValue())
                .isEqualTo(CompactStrategy.LOOKUP);
        w.strategy = "TIERED";
        CompactionWork shipped = s.deserialize(s.getVersion(), s.serialize(w));
        assertThatThrownBy(shipped::strategyValue)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'TIERED'")
                .hasMessageContaining("full, minor, lookup")
                .hasMessageNotContaining("No enum constant");
    }
}
