package io.strata.storage.maintenance;

import io.strata.storage.fs.FileIO;
import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestList;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.snapshot.ChangelogManager;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.Path;

/**
 * What maintenance tests compare: the files a table references and the files on its disk. Lists
 * through the table's own FileIO, so the same comparison holds on a local disk, HDFS or S3.
 */
public final class TableFiles {
    private static final Set<String> METADATA_DIRS =
            Set.of("schema", "snapshot", "tag", "consumer", "changelog", "writer");

    private TableFiles() {}

    /**
     * The names of every data, changelog, manifest and manifest-list file that a retained snapshot
     * or a tag references (a tag reads its base list only), or a kept changelog of an expired
     * snapshot holds.
     */
    public static Set<String> referenced(FileStoreTable t) {
        Set<String> referenced = new HashSet<>(t.reachableFiles().referencedByRetainedSnapshots());
        ManifestList lists = t.manifests().manifestList();
        long earliest = t.snapshotManager().earliestId().orElse(1);
        for (long id = earliest; id <= t.snapshotManager().latestId().orElse(0); id++) {
            Snapshot s = t.snapshotManager().snapshot(id);
            for (String list : new String[] {s.baseManifestList(), s.deltaManifestList(), s.changelogManifestList()}) {
                if (list != null) {
                    referenced.add(list);
                    lists.read(list).stream().map(ManifestFileMeta::fileName).forEach(referenced::add);
                }
            }
        }
        ChangelogOptions.Producer producer = t.schema().tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER);
        for (long id : t.context().changelogManager().ids()) {
            Snapshot kept = t.context().changelogManager().get(id).orElseThrow();
            for (String list : ChangelogManager.changeLists(kept, producer)) {
                referenced.add(list);
                lists.read(list).stream().map(ManifestFileMeta::fileName).forEach(referenced::add);
            }
        }
        for (Tag tag : t.tags().list()) {
            referenced.add(tag.snapshot().baseManifestList());
            lists.read(tag.snapshot().baseManifestList()).stream()
                    .map(ManifestFileMeta::fileName)
                    .forEach(referenced::add);
        }
        return referenced;
    }

    /**
     * The names of the files under the table directory outside schema/, snapshot/, tag/, consumer/,
     * changelog/ and writer/.
     */
    public static Set<String> onDisk(FileStoreTable t) {
        return entriesOnDisk(t).stream().map(e -> e.path().getName()).collect(Collectors.toSet());
    }

    /** The files of {@link #onDisk}, with their paths and modification times. */
    public static List<FileIO.FileEntry> entriesOnDisk(FileStoreTable t) {
        List<FileIO.FileEntry> files = new ArrayList<>();
        try {
            walk(t.fileIO(), t.paths().root(), true, files);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static void walk(FileIO io, Path dir, boolean top, List<FileIO.FileEntry> files) throws IOException {
        for (FileIO.FileEntry e : io.list(dir)) {
            if (e.isDirectory()) {
                if (!(top && METADATA_DIRS.contains(e.path().getName()))) {
                    walk(io, e.path(), false, files);
                }
            } else {
                files.add(e);
            }
        }
    }

    /** {@link #onDisk} without hidden temporaries ({@code .<name>.tmp}), which crashed writes may leave. */
    public static Set<String> visibleOnDisk(FileStoreTable t) {
        return onDisk(t).stream().filter(n -> !n.startsWith(".")).collect(Collectors.toSet());
    }
}
