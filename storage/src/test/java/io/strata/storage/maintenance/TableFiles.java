package io.strata.storage.maintenance;

import io.strata.storage.manifest.ManifestFileMeta;
import io.strata.storage.manifest.ManifestList;
import io.strata.storage.snapshot.Snapshot;
import io.strata.storage.snapshot.Tag;
import io.strata.storage.table.FileStoreTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What maintenance tests compare: the files a table references and the files on its disk. */
final class TableFiles {
    private TableFiles() {}

    /**
     * The names of every data, changelog, manifest and manifest-list file that a retained snapshot
     * or a tag references (a tag reads its base list only).
     */
    static Set<String> referenced(FileStoreTable t) {
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
        for (Tag tag : t.tags().list()) {
            referenced.add(tag.snapshot().baseManifestList());
            lists.read(tag.snapshot().baseManifestList()).stream()
                    .map(ManifestFileMeta::fileName)
                    .forEach(referenced::add);
        }
        return referenced;
    }

    /** The names of the files under the table directory outside schema/, snapshot/, tag/, consumer/ and writer/. */
    static Set<String> onDisk(FileStoreTable t) {
        Path root = Path.of(t.paths().root().toUri());
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> Stream.of("schema", "snapshot", "tag", "consumer", "writer")
                            .noneMatch(d -> p.startsWith(root.resolve(d))))
                    .map(p -> p.getFileName().toString())
                    .collect(Collectors.toSet());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #onDisk} without hidden temporaries ({@code .<name>.tmp}), which crashed writes may leave. */
    static Set<String> visibleOnDisk(FileStoreTable t) {
        return onDisk(t).stream().filter(n -> !n.startsWith(".")).collect(Collectors.toSet());
    }
}
