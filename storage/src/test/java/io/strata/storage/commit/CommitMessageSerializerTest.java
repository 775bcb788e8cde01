package io.strata.storage.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.format.ColumnStats;
import io.strata.storage.format.DataFileMeta;
import io.strata.storage.format.FileSource;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class CommitMessageSerializerTest {
    private static DataFileMeta file(String name, int level) {
        return new DataFileMeta(name, 1234, 100, 3, new Object[] {1L, "a"}, new Object[] {99L, "z"}, 5, 104, level, 2,
                List.of(new ColumnStats(0, 1L, 99L, 0), new ColumnStats(1, null, null, -1),
                        new ColumnStats(2, new BigDecimal("1.50"), new BigDecimal("9.25"), 4)),
                1_764_460_000_000L, level == 0 ? FileSource.APPEND : FileSource.COMPACT);
    }

    @Test
    void roundTripsEveryField() throws IOException {
        CommitMessageSerializer s = new CommitMessageSerializer();
        CommitMessage m = new CommitMessage(new Object[] {20261129, null, new byte[] {1, 2}}, 3, 4,
                List.of(file("a", 0)), List.of(file("b", 0), file("c", 1)), List.of(file("d", 2)), List.of());
        CommitMessage back = s.deserialize(s.version(), s.serialize(m));
        assertThat(back).isEqualTo(m);
        assertThat(s.deserializeList(s.version(), s.serializeList(List.of(m, m)))).containsExactly(m, m);
    }

    @Test
    void rejectsUnknownVersionsAndTrailingBytes() throws IOException {
        CommitMessageSerializer s = new CommitMessageSerializer();
        byte[] bytes = s.serialize(CommitMessage.append(new Object[0], 0, 1, List.of(file("a", 0))));
        assertThatThrownBy(() -> s.deserialize(2, bytes)).hasMessageContaining("version 2");
        byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> s.deserialize(1, longer)).hasMessageContaining("trailing");
    }
}
