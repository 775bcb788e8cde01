package io.strata.storage.fs;

import org.apache.hadoop.fs.Path;

/**
 * Where a table keeps everything (docs/FORMAT.md):
 * <pre>
 * &lt;warehouse&gt;/&lt;db&gt;.db/&lt;table&gt;/
 *   schema/schema-&lt;id&gt;
 *   snapshot/snapshot-&lt;id&gt;, LATEST, EARLIEST
 *   manifest/manifest-&lt;uuid&gt;-&lt;n&gt;, manifest-list-&lt;uuid&gt;-&lt;n&gt;
 *   writer/writer-&lt;token&gt;
 *   [&lt;k&gt;=&lt;v&gt;/...]bucket-&lt;n&gt;/data-&lt;uuid&gt;-&lt;n&gt;.parquet
 * </pre>
 */
public final class TablePaths {
    private final Path root;

    public TablePaths(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public Path schemaDir() {
        return new Path(root, "schema");
    }

    public Path snapshotDir() {
        return new Path(root, "snapshot");
    }

    /** Where tags live: {@code tag/tag-<name>}. */
    public Path tagDir() {
        return new Path(root, "tag");
    }

    public Path tagFile(String name) {
        return new Path(tagDir(), "tag-" + name);
    }

    /**
     * Where the changelog of expired snapshots lives while changelog retention keeps it:
     * {@code changelog/changelog-<id>}.
     */
    public Path changelogDir() {
        return new Path(root, "changelog");
    }

    public Path changelogFile(long id) {
        return new Path(changelogDir(), "changelog-" + id);
    }

    /** Where running writers register: {@code writer/writer-<token>}. */
    public Path writerDir() {
        return new Path(root, "writer");
    }

    public Path manifestDir() {
        return new Path(root, "manifest");
    }

    public Path schemaFile(long id) {
        return new Path(schemaDir(), "schema-" + id);
    }

    public Path snapshotFile(long id) {
        return new Path(snapshotDir(), "snapshot-" + id);
    }

    public Path latestHint() {
        return new Path(snapshotDir(), "LATEST");
    }

    public Path earliestHint() {
        return new Path(snapshotDir(), "EARLIEST");
    }

    public Path manifestFile(String name) {
        return new Path(manifestDir(), name);
    }

    public Path bucketDir(String partitionPath, int bucket) {
        Path p = partitionPath.isEmpty() ? root : new Path(root, partitionPath);
        return new Path(p, "bucket-" + bucket);
    }

    public Path dataFile(String partitionPath, int bucket, String fileName) {
        return new Path(bucketDir(partitionPath, bucket), fileName);
    }
}
