package io.strata.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.strata.cli.workload.StandardWorkload;
import io.strata.cli.workload.WorkloadCheck;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaimonPeerTest {
    /** WORKLOAD.md's second table row. */
    private static final WorkloadCheck SMALL = new WorkloadCheck(40_267L, -1354564158957153659L);

    @Test
    void paimonHoldsTheWorkloadBeforeAndAfterFullCompaction(@TempDir Path dir) throws Exception {
        StandardWorkload workload = StandardWorkload.small();
        try (PaimonPeer peer = PaimonPeer.createTable(dir, "small")) {
            IngestResult ingest = peer.ingest(workload);

            assertThat(ingest.rows()).isEqualTo(100_000);
            assertThat(ingest.files().files())
                    .as("write-only: one level-0 file per bucket per commit")
                    .isEqualTo(5 * 4);
            assertThat(ingest.files().rows())
                    .as(
                            "Paimon merges the rows of one key within a commit before writing, so files hold fewer rows than written")
                    .isBetween(SMALL.liveRows(), 100_000L);
            assertThat(peer.check()).isEqualTo(SMALL);

            CompactionResult compaction = peer.fullCompaction();

            assertThat(compaction.input()).isEqualTo(ingest.files());
            assertThat(compaction.output().files()).isEqualTo(4);
            assertThat(compaction.output().rows())
                    .as("deletes are dropped at the top level")
                    .isEqualTo(SMALL.liveRows());
            assertThat(peer.check()).isEqualTo(SMALL);
        }
    }
}
