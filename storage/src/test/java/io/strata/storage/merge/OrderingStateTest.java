package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ordering state's layouts (docs/FORMAT.md, "Ordering state"): a state without member
 * entries is layout 1, byte for byte as before layout 2 existed, so files of tables without
 * order-sensitive group members do not change; a state with member entries is layout 2 and
 * round-trips; any other layout is refused.
 */
class OrderingStateTest {
    private static final java.util.Comparator<Object> BIGINT = ValueComparators.forType(DataType.parse("BIGINT"));

    private static List<String> decode(byte[] bytes) {
        List<String> out = new ArrayList<>();
        OrderingState.read(bytes, new OrderingState.Sink() {
            @Override
            public void rowSequence(long seq) {
                out.add("row " + seq);
            }

            @Override
            public void field(int fieldId, Object ordering, long seq) {
                out.add("field " + fieldId + " " + ordering + " " + seq);
            }

            @Override
            public void group(int groupId, long seq) {
                out.add("group " + groupId + " " + seq);
            }

            @Override
            public void member(int fieldId, Object[] tuple, long seq) {
                out.add("member " + fieldId + " " + Arrays.toString(tuple) + " " + seq);
            }
        });
        return out;
    }

    @Test
    void withoutMemberEntriesTheStateIsLayoutOne() {
        OrderingState.Builder b = new OrderingState.Builder(BIGINT, false);
        b.rowSequence(7);
        b.field(3, 5L, 6);
        b.group(4, 2);
        byte[] bytes = b.toBytes();
        // layout 1, row sequence 7, one field entry (5L, seq 6, field 3), one group entry (4, 2)
        assertThat(bytes[0]).isEqualTo(OrderingState.LAYOUT);
        assertThat(bytes[bytes.length - 3]).as("group count").isEqualTo((byte) 1);
        assertThat(decode(bytes)).containsExactly("row 7", "field 3 5 6", "group 4 2");
    }

    @Test
    void memberEntriesAreLayoutTwoAndRoundTrip() {
        OrderingState.Builder b = new OrderingState.Builder(BIGINT, false);
        b.group(4, 2);
        b.member(5, new Object[] {9L, null}, 300);
        b.member(6, new Object[] {"s"}, 1);
        byte[] bytes = b.toBytes();
        assertThat(bytes[0]).isEqualTo(OrderingState.LAYOUT_MEMBERS);
        assertThat(decode(bytes)).containsExactly("group 4 2", "member 5 [9, null] 300", "member 6 [s] 1");
    }

    @Test
    void anUnknownLayoutIsRefused() {
        byte[] bytes = new OrderingState.Builder(BIGINT, true).toBytes();
        bytes[0] = 3;
        assertThatThrownBy(() -> decode(bytes))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ordering state of layout 3 (known: 1, 2)");
    }
}
