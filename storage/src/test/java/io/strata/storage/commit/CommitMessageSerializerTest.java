package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitMessageSerializerTest {
    private static DataFileMeta file(String name, int level) {
        return new DataFileMeta(
                name,
                1234,
                100,
                3,
                new Object[] {1L, "a"},
                new Object[] {99L, "z"},
                5,
                104,
                level,
                2,
                List.of(
                        new ColumnStats(0, 1L, 99L, 0),
                        new ColumnStats(1, null, null, -1),
                        new ColumnStats(2, new BigDecimal("1.50"), new BigDecimal("9.25"), 4)),
                1_764_460_000_000L,
                level == 0 ? FileSource.APPEND : FileSource.COMPACT);
    }

    /**
     * File {@code i}: every numeric field its own value (distinct from every other field and from
     * every other file's), so a serializer that swaps, drops or truncates one fails.
     */
    private static DataFileMeta distinctFile(int i) {
        long base = 1_000L * (i + 1);
        return new DataFileMeta(
                "file-" + i + "-é",
                base + 1,
                base + 2,
                base + 3,
                new Object[] {base + 4, "min-" + i},
                new Object[] {base + 5, "max-" + i},
                base + 6,
                base + 7,
                i % 5,
                base + 8,
                List.of(
                        new ColumnStats(i, base + 9, base + 10, base + 11),
                        new ColumnStats(i + 100, "s" + i, "t" + i, -1),
                        new ColumnStats(i + 200, new BigDecimal(i + ".25"), null, 0)),
                1_764_460_000_000L + base + 12,
                i % 2 == 0 ? FileSource.APPEND : FileSource.COMPACT);
    }

    @Test
    void roundTripsEveryField() throws IOException {
        CommitMessageSerializer s = new CommitMessageSerializer();
        List<DataFileMeta> append = List.of(distinctFile(0), distinctFile(1));
        List<DataFileMeta> before = List.of(distinctFile(2), distinctFile(3), distinctFile(4));
        List<DataFileMeta> after = List.of(distinctFile(5));
        List<DataFileMeta> changelog = List.of(distinctFile(6), distinctFile(7));
        List<DataFileMeta> compactChangelog = List.of(distinctFile(8), distinctFile(9), distinctFile(10));
        CommitMessage m = new CommitMessage(
                new Object[] {20261129, null, new byte[] {1, 2}, "p"},
                3,
                4,
                append,
                before,
                after,
                changelog,
                compactChangelog);

        CommitMessage back = s.deserialize(s.version(), s.serialize(m));

        assertThat(back.partition()).containsExactly(20261129, null, new byte[] {1, 2}, "p");
        assertThat(back.bucket()).isEqualTo(3);
        assertThat(back.totalBuckets()).isEqualTo(4);
        assertSameFiles("appendFiles", back.appendFiles(), append);
        assertSameFiles("compactBefore", back.compactBefore(), before);
        assertSameFiles("compactAfter", back.compactAfter(), after);
        assertSameFiles("changelogFiles", back.changelogFiles(), changelog);
        assertSameFiles("compactChangelogFiles", back.compactChangelogFiles(), compactChangelog);
        assertThat(back).isEqualTo(m);
        assertThat(s.deserializeList(s.version(), s.serializeList(List.of(m, back))))
                .containsExactly(m, m);
    }

    /** Field by field, so the check does not rest on DataFileMeta.equals covering every field. */
    private static void assertSameFiles(String list, List<DataFileMeta> actual, List<DataFileMeta> expected) {
        assertThat(actual).as(list).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            DataFileMeta a = actual.get(i);
            DataFileMeta e = expected.get(i);
            String what = list + "[" + i + "] ";
            assertThat(a.fileName()).as(what + "fileName").isEqualTo(e.fileName());
            assertThat(a.fileSize()).as(what + "fileSize").isEqualTo(e.fileSize());
            assertThat(a.rowCount()).as(what + "rowCount").isEqualTo(e.rowCount());
            assertThat(a.deleteRowCount()).as(what + "deleteRowCount").isEqualTo(e.deleteRowCount());
            assertThat(a.minKey()).as(what + "minKey").containsExactly(e.minKey());
            assertThat(a.maxKey()).as(what + "maxKey").containsExactly(e.maxKey());
            assertThat(a.minSequence()).as(what + "minSequence").isEqualTo(e.minSequence());
            assertThat(a.maxSequence()).as(what + "maxSequence").isEqualTo(e.maxSequence());
            assertThat(a.level()).as(what + "level").isEqualTo(e.level());
            assertThat(a.schemaId()).as(what + "schemaId").isEqualTo(e.schemaId());
            assertThat(a.creationTimeMillis()).as(what + "creationTimeMillis").isEqualTo(e.creationTimeMillis());
            assertThat(a.source()).as(what + "source").isEqualTo(e.source());
            assertThat(a.stats()).as(what + "stats").hasSameSizeAs(e.stats());
            for (int c = 0; c < e.stats().size(); c++) {
                ColumnStats as = a.stats().get(c);
                ColumnStats es = e.stats().get(c);
                assertThat(as.fieldId()).as(what + "stats[" + c + "].fieldId").isEqualTo(es.fieldId());
                assertThat(as.min()).as(what + "stats[" + c + "].min").isEqualTo(es.min());
                assertThat(as.max()).as(what + "stats[" + c + "].max").isEqualTo(es.max());
                assertThat(as.nullCount())
                        .as(what + "stats[" + c + "].nullCount")
                        .isEqualTo(es.nullCount());
            }
        }
    }

    @Test
    void rejectsUnknownVersionsAndTrailingBytes() throws IOException {
        CommitMessageSerializer s = new CommitMessageSerializer();
        byte[] bytes = s.serialize(CommitMessage.append(new Object[0], 0, 1, List.of(file("a", 0))));
        assertThatThrownBy(() -> s.deserialize(2, bytes)).hasMessageContaining("version 2");
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> s.deserialize(1, longer)).hasMessageContaining("trailing");
    }
}
