package io.strata.storage.commit;

import io.strata.storage.data.BucketId;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.manifest.FileKind;
import io.strata.storage.manifest.LiveFiles;
import io.strata.storage.manifest.ManifestEntry;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestStore;
import io.strata.storage.manifest.PartitionBucketFilter;
import io.strata.storage.schema.TableSchema;
import io.strata.storage.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides whether a set of entries can be applied on top of a snapshot:
 * <ol>
 *   <li>every file a DELETE names must be live in the snapshot;</li>
 *   <li>in every touched bucket, after applying the entries, files on the same level >= 1 must not
 *       overlap in key range (each such level is one sorted run).</li>
 * </ol>
 * Commits that only add level-0 files skip both checks without reading any manifest: level 0
 * may overlap, and adding never invalidates anyone.
 */
final class ConflictDetection {
    private final String tableName;
    private final TableSchema schema;
    private final ManifestStore manifests;
    private final Comparator<Object[]> keyComparator;

    ConflictDetection(String tableName, TableSchema schema, ManifestStore manifests) {
        this.tableName = tableName;
        this.schema = schema;
        this.manifests = manifests;
        this.keyComparator = ValueComparators.forTuple(schema.typesOf(schema.primaryKeyIndexes()));
    }

    static boolean needsCheck(List<ManifestEntry> entries) {
        for (ManifestEntry e : entries) {
            if (e.kind() == FileKind.DELETE || e.file().level() > 0) {
                return true;
            }
        }
        return false;
    }

    /** @throws CommitConflictException naming the file and snapshot when the entries cannot apply */
    void check(Snapshot latest, List<ManifestEntry> entries) {
        if (!needsCheck(entries)) {
            return;
        }
        PartitionBucketFilter filter = new PartitionBucketFilter(schema.typesOf(schema.partitionIndexes()));
        for (ManifestEntry e : entries) {
            filter.add(e.bucketId());
        }
        List<ManifestFileMeta> base =
                latest == null ? List.of() : manifests.manifestList().read(latest.baseManifestList());
        LiveFiles live = manifests.scanner().fold(base, filter);
        Map<ManifestEntry.Identifier, ManifestEntry> liveById = new HashMap<>();
        for (ManifestEntry e : live.live()) {
            liveById.put(e.identifier(), e);
        }
        for (ManifestEntry e : entries) {
            if (e.kind() == FileKind.DELETE && !liveById.containsKey(e.identifier())) {
                throw new CommitConflictException("table " + tableName + ": file " + e.identifier()
                        + " is no longer live in snapshot " + (latest == null ? "(none)" : latest.id())
                        + "; a concurrent commit replaced it");
            }
        }
        for (ManifestEntry e : entries) {
            if (e.kind() == FileKind.DELETE) {
                liveById.remove(e.identifier());
            }
        }
        for (ManifestEntry e : entries) {
            if (e.kind() == FileKind.ADD) {
                liveById.put(e.identifier(), e);
            }
        }
        if (schema.hasPrimaryKey()) {
            checkLevels(liveById.values());
        }
    }

    private void checkLevels(Iterable<ManifestEntry> files) {
        Map<LevelOfBucket, List<DataFileMeta>> runs = new HashMap<>();
        for (ManifestEntry e : files) {
            if (e.file().level() > 0) {
                runs.computeIfAbsent(new LevelOfBucket(e.bucketId(), e.file().level()), x -> new ArrayList<>())
                        .add(e.file());
            }
        }
        for (Map.Entry<LevelOfBucket, List<DataFileMeta>> run : runs.entrySet()) {
            List<DataFileMeta> fs = run.getValue();
            fs.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
            for (int i = 1; i < fs.size(); i++) {
                if (keyComparator.compare(fs.get(i - 1).maxKey(), fs.get(i).minKey()) >= 0) {
                    throw new CommitConflictException(
                            "table " + tableName + ": files " + fs.get(i - 1).fileName()
                                    + " and " + fs.get(i).fileName() + " would overlap in key range on level "
                                    + fs.get(i).level() + " of " + run.getKey().bucket());
                }
            }
        }
    }

    /** One level of one bucket: the files on it must not overlap in key range. */
    private record LevelOfBucket(BucketId bucket, int level) {}
}
