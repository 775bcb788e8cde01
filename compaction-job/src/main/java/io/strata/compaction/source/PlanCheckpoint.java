package io.strata.compaction.source;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The planner's checkpointed state: deliberately empty. Work is never carried across a restore:
 * a restored job plans again from the latest snapshot (the committer has re-committed what
 * completed checkpoints hold by then or does so concurrently; a bucket planned twice fails its
 * second commit cleanly and is re-planned). This is what keeps a job that was down for a day from
 * replaying a day of triggers. Versioned so that state can be added later.
 */
public final class PlanCheckpoint {
    public static final PlanCheckpoint EMPTY = new PlanCheckpoint();

    private PlanCheckpoint() {}

    /** Version 1: no payload. */
    public static final class Serializer implements SimpleVersionedSerializer<PlanCheckpoint> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(PlanCheckpoint c) {
            return new byte[0];
        }

        @Override
        public PlanCheckpoint deserialize(int version, byte[] bytes) throws IOException {
            if (version != 1 || bytes.length != 0) {
                throw new IOException(
                        "unknown planner checkpoint version " + version + " (" + bytes.length + " bytes)");
            }
            return EMPTY;
        }
    }
}
