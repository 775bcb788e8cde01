package io.strata.storage.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ordering state's layouts (docs/FORMAT.md, "Ordering state"): a state without member or
 * element entries is layout 1, byte for byte as before layout 2 existed, so files of tables without
 * order-sensitive group members do not change; a state with member entries is layout 2, one with
 * element entries layout 3, and both round-trip; states written before layout 3 existed (bytes
 * kept here as those writers wrote them) still decode; any other layout is refused.
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

            @Override
            public void elements(int fieldId, List<OrderingState.ElementRun> runs) {
                out.add("elements " + fieldId + " " + runs);
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
    void elementEntriesAreLayoutThreeAndRoundTrip() {
        OrderingState.Builder b = new OrderingState.Builder(BIGINT, true);
        b.field(3, 5L, 6);
        b.elements(4, List.of(run(new Object[] {null}, 2, 0), run(new Object[] {7L}, 300, 5)));
        b.elements(9, List.of(run(new Object[] {"x", 1L}, 1, 2)));
        byte[] bytes = b.toBytes();
        assertThat(bytes[0]).isEqualTo(OrderingState.LAYOUT_ELEMENTS);
        assertThat(decode(bytes))
                .containsExactly("field 3 5 6", "elements 4 [[null]/2x0, [7]/300x5]", "elements 9 [[x, 1]/1x2]");

        OrderingState.Builder withMembers = new OrderingState.Builder(BIGINT, false);
        withMembers.member(5, new Object[] {9L}, 3);
        withMembers.elements(6, List.of(run(new Object[] {9L}, 3, 1)));
        assertThat(decode(withMembers.toBytes())).containsExactly("member 5 [9] 3", "elements 6 [[9]/3x1]");
    }

    private static OrderingState.ElementRun run(Object[] ordering, long seq, int units) {
        return new OrderingState.ElementRun(ordering, seq, units);
    }

    /**
     * States as the writers before layout 3 wrote them (aggregation under sequence.field: b from
     * (3, seq 1), c and e from (5, seq 0); a sequence group (ts, d) with a, b from (7, 0) seq 2 and c
     * from (5, 0) seq 0, its group set by seq 1), and as this writer still writes them.
     */
    @Test
    void statesOfLayoutsOneAndTwoWrittenBeforeLayoutThreeStillDecode() {
        byte[] layoutOne = HexFormat.of().parseHex(LAYOUT_ONE_AGGREGATION);
        assertThat(decode(layoutOne)).containsExactly("field 3 3 1", "field 4 5 0", "field 6 5 0");
        OrderingState.Builder b = new OrderingState.Builder(BIGINT, true);
        b.field(3, 3L, 1);
        b.field(4, 5L, 0);
        b.field(6, 5L, 0);
        assertThat(b.toBytes()).as("written as before").isEqualTo(layoutOne);

        byte[] layoutTwo = HexFormat.of().parseHex(LAYOUT_TWO_GROUP_MEMBERS);
        assertThat(decode(layoutTwo))
                .containsExactly("group 7 1", "member 2 [7, 0] 2", "member 3 [7, 0] 2", "member 4 [5, 0] 0");
    }

    /** OrderingState bytes written before layout 3 existed (see the test above). */
    static final String LAYOUT_ONE_AGGREGATION = "0100020300000000000000030101030300000000000000050002040600";

    static final String LAYOUT_TWO_GROUP_MEMBERS = "020000010701030202020300000000000000070300000000000000000302020300"
            + "00000000000007030000000000000000040002030000000000000005030000000000000000";

    @Test
    void anUnknownLayoutIsRefused() {
        byte[] bytes = new OrderingState.Builder(BIGINT, true).toBytes();
        bytes[0] = 4;
        assertThatThrownBy(() -> decode(bytes))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ordering state of layout 4 (known: 1, 2, 3)");
    }
}
