package io.strata.storage.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BucketIdTest {

    @Test
    void equalByValueIncludingByteArrays() {
        BucketId a = BucketId.of(new Object[] {"x", new byte[] {1, 2}, 7L}, 3);
        BucketId b = BucketId.of(new Object[] {"x", new byte[] {1, 2}, 7L}, 3);
        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(BucketId.of(new Object[] {"x", new byte[] {1, 3}, 7L}, 3));
        assertThat(a).isNotEqualTo(BucketId.of(new Object[] {"x", new byte[] {1, 2}, 7L}, 4));
        Set<BucketId> set = new HashSet<>(Set.of(a));
        assertThat(set).contains(b);
    }

    @Test
    void immutableAgainstTheCallersArrays() {
        Object[] values = {"x", new byte[] {1, 2}};
        BucketId id = BucketId.of(values, 0);
        values[0] = "y";
        ((byte[]) values[1])[0] = 9;
        ((byte[]) id.partition()[1])[1] = 9;
        id.partition()[0] = "z";
        assertThat(id).isEqualTo(BucketId.of(new Object[] {"x", new byte[] {1, 2}}, 0));
    }

    @Test
    void keyRoundTripsEveryPartitionValueType() {
        Object[] values = {
            null, true, 42, 43L, 1.5f, 2.5d, new BigDecimal("12345678901234567890.0123"), "a/b c", new byte[] {0, -1}
        };
        BucketId id = BucketId.of(values, 12);
        assertThat(id.key()).doesNotContainAnyWhitespaces();
        assertThat(BucketId.parseKey(id.key())).isEqualTo(id);
        assertThat(BucketId.parseKey(BucketId.of(new Object[0], 0).key())).isEqualTo(BucketId.of(new Object[0], 0));
    }

    @Test
    void keyIsStableAcrossBuilds() {
        // Flink state and in-flight maps hold keys: this form must never change
        assertThat(BucketId.of(new Object[] {1}, 3).key()).isEqualTo("000000010200000001/3");
        assertThat(BucketId.of(new Object[] {"a"}, 0).key()).isEqualTo("00000001070000000161/0");
    }

    @Test
    void readableFormNamesValuesAndBucket() {
        assertThat(BucketId.of(new Object[] {"2026-12-01", new byte[] {10}}, 2))
                .hasToString("partition=[2026-12-01, 0x0a], bucket=2");
    }

    @Test
    void rejectsBadInputNamingIt() {
        assertThatThrownBy(() -> BucketId.of(new Object[0], -1)).hasMessageContaining("-1");
        assertThatThrownBy(() -> BucketId.parseKey("zz/1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'zz/1'");
        assertThatThrownBy(() -> BucketId.parseKey("00000000")).hasMessageContaining("'00000000'");
        assertThatThrownBy(() -> BucketId.parseKey("00000000/x")).hasMessageContaining("'00000000/x'");
    }
}
