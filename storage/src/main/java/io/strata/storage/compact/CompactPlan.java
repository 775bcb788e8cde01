package io.strata.storage.compact;

import io.strata.storage.data.BucketId;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.mergetree.Levels;
import io.strata.storage.mergetree.SortedRun;
import java.util.ArrayList;
import java.util.List;

/**
 * The immutable plan of one bucket's compaction: which runs were picked and why, the output
 * level, whether deletes are dropped, and per section whether its files are moved up by a
 * metadata-only upgrade or rewritten. Sections are independent units of work.
 */
public final class CompactPlan {

    /** One unit of work. */
    public static final class Section {
        private final List<SortedRun> runs;
        private final boolean rewrite;

        Section(List<SortedRun> runs, boolean rewrite) {
            this.runs = List.copyOf(runs);
            this.rewrite = rewrite;
        }

        /** Rewrite (merge) the runs, or upgrade their files to the output level unchanged. */
        public boolean rewrite() {
            return rewrite;
        }

        public List<SortedRun> runs() {
            return runs;
        }

        public List<DataFileMeta> files() {
            List<DataFileMeta> out = new ArrayList<>();
            for (SortedRun r : runs) {
                out.addAll(r.files());
            }
            return out;
        }

        public long bytes() {
            long b = 0;
            for (SortedRun r : runs) {
                b += r.totalSize();
            }
            return b;
        }
    }

    private final BucketId bucket;
    private final CompactUnit unit;
    private final boolean dropDelete;
    private final List<Section> sections;
    private final Levels levels;

    CompactPlan(BucketId bucket, CompactUnit unit, boolean dropDelete, List<Section> sections, Levels levels) {
        this.levels = levels;
        this.bucket = bucket;
        this.unit = unit;
        this.dropDelete = dropDelete;
        this.sections = List.copyOf(sections);
    }

    public BucketId bucketId() {
        return bucket;
    }

    public Object[] partition() {
        return bucket.partition();
    }

    public int bucket() {
        return bucket.bucket();
    }

    public CompactUnit unit() {
        return unit;
    }

    public int outputLevel() {
        return unit.outputLevel();
    }

    public CompactReason reason() {
        return unit.reason();
    }

    /** True when the output level is the bucket's highest non-empty level: nothing older remains below. */
    public boolean dropDelete() {
        return dropDelete;
    }

    public List<Section> sections() {
        return sections;
    }

    /** The bucket's shape the plan was made from. */
    public Levels levels() {
        return levels;
    }

    public List<DataFileMeta> inputFiles() {
        return unit.files();
    }

    public List<DataFileMeta> upgradedFiles() {
        List<DataFileMeta> out = new ArrayList<>();
        for (Section s : sections) {
            if (!s.rewrite()) {
                out.addAll(s.files());
            }
        }
        return out;
    }

    public long bytesToRead() {
        long b = 0;
        for (Section s : sections) {
            if (s.rewrite()) {
                b += s.bytes();
            }
        }
        return b;
    }

    public long rowsToRead() {
        long n = 0;
        for (Section s : sections) {
            if (s.rewrite()) {
                for (DataFileMeta f : s.files()) {
                    n += f.rowCount();
                }
            }
        }
        return n;
    }

    @Override
    public String toString() {
        return "CompactPlan{" + bucket + ", " + unit + ", dropDelete=" + dropDelete + ", sections=" + sections.size()
                + "}";
    }
}
