package io.strata.storage.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.commit.CommitMessage;
import io.strata.storage.commit.CommitMessageSerializer;
import io.strata.storage.compact.CompactStrategy;
import io.strata.storage.data.RowKind;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import io.strata.storage.options.ChangelogOptions;
import io.strata.storage.options.TableOptions;
import io.strata.storage.table.FileStoreTable;
import io.strata.storage.testutil.JsonFiles;
import io.strata.storage.testutil.TestTables;
import io.strata.storage.util.CorruptFileException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An enum value this build does not know, in a persisted or shipped form (a newer writer, or
 * corruption), fails naming the value, the file where one is being read, and the known values;
 * never an index error or Java's "No enum constant".
 */
class UnknownEnumValuesTest {
    @TempDir
    java.nio.file.Path dir;

    private static DataFileMeta file(FileSource source) {
        return new DataFileMeta(
                "data-1.parquet", 10, 1, 0, new Object[] {1L}, new Object[] {1L}, 0, 0, 0, 0, List.of(), 1L, source);
    }

    @Test
    void aManifestEntryOfAnUnknownFileSourceNamesTheManifestTheValueAndTheKnownOnes() throws Exception {
        Object[] row =
                ManifestFile.toRow(new ManifestEntry(FileKind.ADD, new Object[0], 0, 1, file(FileSource.APPEND)));
        row[ManifestFile.FILE_SOURCE] = 7;
        Path manifest = new Path("file:/warehouse/db.db/t/manifest/manifest-x-0.parquet");
        assertThatThrownBy(() -> ManifestFile.fromRow(row, manifest))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-x-0.parquet")
                .hasMessageContaining("unknown file source 7")
                .hasMessageContaining("0 = append")
                .hasMessageContaining("1 = compact")
                .hasMessageNotContaining("Index");
    }

    @Test
    void aManifestEntryOfAnUnknownFileKindNamesTheManifestTheValueAndTheKnownOnes() throws Exception {
        Object[] row =
                ManifestFile.toRow(new ManifestEntry(FileKind.ADD, new Object[0], 0, 1, file(FileSource.COMPACT)));
        row[ManifestFile.KIND] = 5;
        Path manifest = new Path("file:/warehouse/db.db/t/manifest/manifest-y-0.parquet");
        assertThatThrownBy(() -> ManifestFile.fromRow(row, manifest))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("manifest-y-0.parquet")
                .hasMessageContaining("unknown file kind 5")
                .hasMessageContaining("0 = add")
                .hasMessageContaining("1 = delete");
    }

    @Test
    void aCommitMessageOfAnUnknownFileSourceNamesTheValueAndTheKnownOnes() throws Exception {
        CommitMessageSerializer s = new CommitMessageSerializer();
        byte[] bytes = s.serialize(CommitMessage.append(new Object[0], 0, 1, List.of(file(FileSource.COMPACT))));
        // the file's source is its last byte, before the counts of the four empty lists after the append files
        int at = bytes.length - 1 - 4 * 4;
        assertThat(bytes[at]).isEqualTo((byte) FileSource.COMPACT.ordinal());
        bytes[at] = 9;
        assertThatThrownBy(() -> s.deserialize(s.version(), bytes))
                .hasMessageContaining("unknown file source 9")
                .hasMessageContaining("0 = append")
                .hasMessageContaining("1 = compact");
        bytes[at] = -1;
        assertThatThrownBy(() -> s.deserialize(s.version(), bytes)).hasMessageContaining("unknown file source -1");
    }

    @Test
    void aSnapshotOfAnUnknownCommitKindNamesTheFileTheValueAndTheKnownOnes() throws Exception {
        FileStoreTable t = TestTables.oneRowTable(dir.toString());
        java.nio.file.Path snapshot =
                java.nio.file.Path.of(t.paths().snapshotFile(1).toUri());
        String json = Files.readString(snapshot, StandardCharsets.UTF_8);
        assertThat(json).contains("\"APPEND\"");
        // as a newer writer would write it: its content checksum matches
        JsonFiles.rewriteSealed(snapshot, root -> root.put("commitKind", "MERGE"));
        assertThatThrownBy(() -> t.snapshotManager().snapshot(1))
                .isInstanceOf(CorruptFileException.class)
                .hasMessageContaining("snapshot-1")
                .hasMessageContaining("MERGE")
                .hasMessageContaining("APPEND")
                .hasMessageContaining("COMPACT")
                .hasMessageContaining("OVERWRITE");
    }

    @Test
    void rowAndFileKindsNameTheValueAndTheKnownOnes() {
        assertThatThrownBy(() -> RowKind.fromByteValue(4))
                .hasMessageContaining("unknown row kind byte 4")
                .hasMessageContaining("0 = +I")
                .hasMessageContaining("3 = -D");
        assertThatThrownBy(() -> FileKind.fromValue(2))
                .hasMessageContaining("unknown file kind 2")
                .hasMessageContaining("0 = add");
        assertThat(FileSource.fromOrdinal(1)).isEqualTo(FileSource.COMPACT);
    }

    /** Jobs ship and checkpoint strategies by name (CompactionWork, CompactionCommittable). */
    @Test
    void anUnknownStrategyNameNamesTheValueAndTheKnownOnes() {
        assertThat(CompactStrategy.parse("LOOKUP")).isEqualTo(CompactStrategy.LOOKUP);
        assertThat(CompactStrategy.parse(" full ")).isEqualTo(CompactStrategy.FULL);
        assertThatThrownBy(() -> CompactStrategy.parse("TIERED"))
                .hasMessageContaining("'TIERED'")
                .hasMessageContaining("full, minor, lookup")
                .hasMessageNotContaining("No enum constant");
    }

    /** Enum options are stored in schema files; the error names the option, the value and the known ones. */
    @Test
    void anUnknownEnumOptionNamesTheOptionTheValueAndTheKnownOnes() {
        assertThatThrownBy(() -> TableOptions.validate("schema file schema-0", Map.of("changelog-producer", "delta")))
                .hasMessageContaining("schema file schema-0")
                .hasMessageContaining("changelog-producer")
                .hasMessageContaining("'delta'")
                .hasMessageContaining("none, input, lookup, full-compaction")
                .hasMessageNotContaining("No enum constant");
        assertThat(TableOptions.validate("t", Map.of("changelog-producer", "FULL_COMPACTION"))
                        .get(ChangelogOptions.CHANGELOG_PRODUCER))
                .isEqualTo(ChangelogOptions.Producer.FULL_COMPACTION);
        assertThat(TableOptions.validate("t", Map.of("changelog-producer", "Full-Compaction"))
                        .get(ChangelogOptions.CHANGELOG_PRODUCER))
                .isEqualTo(ChangelogOptions.Producer.FULL_COMPACTION);
    }
}
