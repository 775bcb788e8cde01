package io.strata.storage.merge;

import io.strata.storage.merge.OrderingState.ElementRun;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * The members of sequence groups with {@code listagg}, {@code collect} or {@code merge_map}, for
 * {@link OrderedPartialUpdateMergeFunction}: per member an {@link OrderedElements} ordered by its
 * group's sequence tuple, fed by every row that carries the group's sequence.
 *
 * <p>State contract (docs/FORMAT.md, "Ordering state"): a member without element entries in a
 * record is one piece of the row that set the group in that record (its group tuple and group
 * sequence number), or no piece when null; so entries are written only for a value that is not
 * exactly that.
 */
final class GroupElementMembers {
    private final SequenceGroups.Group[] groups;
    private final Comparator<Object>[] tupleComparators;
    private final int[] fieldIds;
    /** Per group: its members with an element function. */
    private final int[][] members;
    /** By position: the member's accumulator, else null. */
    private final OrderedElements[] elements;
    /** By position: the member's runs in the record being added, when it has any. */
    private final List<List<ElementRun>> stored;

    /**
     * @param functions by position: the element function of a member ({@link OrderedElements#handles}), else null
     * @param tupleComparators by position: the comparator of each group sequence field
     */
    GroupElementMembers(
            TableSchema schema,
            SequenceGroups.Group[] groups,
            AggregateFunction[] functions,
            Comparator<Object>[] tupleComparators) {
        this.groups = groups;
        this.tupleComparators = tupleComparators;
        int arity = functions.length;
        this.fieldIds = new int[arity];
        this.elements = new OrderedElements[arity];
        this.stored = new ArrayList<>(Collections.nCopies(arity, null));
        this.members = new int[groups.length][];
        for (int i = 0; i < arity; i++) {
            fieldIds[i] = schema.fields().get(i).id();
        }
        for (int g = 0; g < groups.length; g++) {
            List<Integer> list = new ArrayList<>();
            for (int m : groups[g].members) {
                if (functions[m] != null) {
                    list.add(m);
                    DataType type = schema.fields().get(m).type();
                    elements[m] = new OrderedElements(
                            functions[m],
                            type,
                            tuples(g),
                            schema.fields().get(m).name());
                }
            }
            members[g] = list.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    private Comparator<Object[]> tuples(int g) {
        int[] seq = groups[g].sequenceFields;
        return (a, b) -> {
            for (int i = 0; i < seq.length; i++) {
                int c = tupleComparators[seq[i]].compare(a[i], b[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    /** Whether group {@code g} has such members (every row carrying its sequence then changes it). */
    boolean any(int g) {
        return members[g].length > 0;
    }

    void reset() {
        for (OrderedElements e : elements) {
            if (e != null) {
                e.reset();
            }
        }
    }

    /** Keeps the runs that the state of the record being added holds for {@code pos}; ignored for other fields. */
    void stored(int pos, List<ElementRun> runs) {
        if (elements[pos] != null) {
            stored.set(pos, runs);
        }
    }

    /** Forgets the runs of the record just added. */
    void clearStored() {
        Collections.fill(stored, null);
    }

    /**
     * Adds the members of group {@code g} in record {@code r}, whose group tuple is {@code rowTuple}
     * and group sequence number {@code s} (the row carries the group's sequence).
     */
    void add(int g, Object[] r, Object[] rowTuple, long s) {
        for (int f : members[g]) {
            List<ElementRun> runs = stored.get(f);
            if (runs != null) {
                elements[f].addPreMerged(r[f], runs);
            } else {
                elements[f].add(rowTuple, s, r[f]);
            }
        }
    }

    /** Sets every member's value in {@code row}. */
    void fill(Object[] row) {
        for (int f = 0; f < elements.length; f++) {
            if (elements[f] != null) {
                row[f] = elements[f].value();
            }
        }
    }

    /**
     * Writes the element entries of group {@code g}'s members whose value is not one piece of the
     * group's row, given the merged row {@code values} (the group's tuple) and the group's sequence number.
     */
    void write(OrderingState.Builder b, int g, Object[] values, long groupSeq) {
        for (int f : members[g]) {
            List<ElementRun> runs = elements[f].runs();
            if (!isGroupsOwnPiece(g, runs, values, groupSeq)) {
                b.elements(fieldIds[f], runs);
            }
        }
    }

    /** No runs (null, or only empty inputs) or one run of the group's row: what a value without entries reads as. */
    private boolean isGroupsOwnPiece(int g, List<ElementRun> runs, Object[] values, long groupSeq) {
        if (runs.isEmpty()) {
            return true;
        }
        if (runs.size() > 1 || runs.get(0).seq != groupSeq) {
            return false;
        }
        int[] seq = groups[g].sequenceFields;
        for (int i = 0; i < seq.length; i++) {
            if (tupleComparators[seq[i]].compare(runs.get(0).ordering[i], values[seq[i]]) != 0) {
                return false;
            }
        }
        return true;
    }
}
