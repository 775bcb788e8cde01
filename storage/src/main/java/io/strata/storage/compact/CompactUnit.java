package io.strata.storage.compact;

import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.LevelSortedRun;
import java.util.ArrayList;
import java.util.List;

/** What a picker chose: sorted runs (newest first) to merge into {@code outputLevel}, and why. */
public final class CompactUnit {
    private final int outputLevel;
    private final List<LevelSortedRun> runs;
    private final CompactReason reason;

    public CompactUnit(int outputLevel, List<LevelSortedRun> runs, CompactReason reason) {
        this.outputLevel = outputLevel;
        this.runs = List.copyOf(runs);
        this.reason = reason;
    }

    public int outputLevel() {
        return outputLevel;
    }

    public List<LevelSortedRun> runs() {
        return runs;
    }

    public CompactReason reason() {
        return reason;
    }

    public List<DataFileMeta> files() {
        List<DataFileMeta> out = new ArrayList<>();
        for (LevelSortedRun r : runs) {
            out.addAll(r.run().files());
        }
        return out;
    }

    @Override
    public String toString() {
        return "CompactUnit{" + reason + ", runs=" + runs + " -> L" + outputLevel + "}";
    }
}
