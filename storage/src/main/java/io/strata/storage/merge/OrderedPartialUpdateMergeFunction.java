package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * partial-update ordered by {@code sequence.field} and/or sequence groups. Every value remembers
 * the ordering that produced it, so the merge is commutative and associative over records and
 * pre-merged rows alike, and the result does not depend on how rows were grouped into commits,
 * flushes or compactions:
 * <ul>
 *   <li>a field outside groups keeps the non-null value of the highest (sequence-field value,
 *       sequence number) among the rows that set it; without {@code sequence.field}, of the
 *       highest sequence number (arrival);</li>
 *   <li>a group takes all its members (nulls included) from the row with the highest (group
 *       sequence tuple, sequence number), ignoring rows whose tuple is all null; its members with
 *       an order-insensitive aggregate function fold every such row instead, and those with
 *       {@code last_non_null_value}, {@code first_value} or {@code first_non_null_value} take the
 *       value of the highest / lowest such row (with a non-null value) by that same ordering
 *       ({@code last_value} is what a member without a function does); those with {@code listagg},
 *       {@code collect} or {@code merge_map} keep every such row's value as a piece in that ordering
 *       ({@link OrderedElements});</li>
 *   <li>with {@code partial-update.remove-record-on-delete}, the highest -D (by sequence field,
 *       then sequence number) removes every value ordering below it: the row exists when its
 *       highest +I/+U orders above that -D. -U is ignored.</li>
 * </ul>
 *
 * <p>Partial result: [the highest -D, if any] then [the row, when it exists], whose sequence
 * number is the highest of every record added (so a file's maximum sequence covers every sequence
 * its ordering state names) and whose {@link KeyValue#orderings() ordering state} lists the
 * values and groups that do not order as the row itself ({@link OrderingState}). The -D is kept at
 * the top level too: a late row older than it must stay removed, like deduplicate's tombstones.
 */
final class OrderedPartialUpdateMergeFunction implements MergeFunction {

    /**
     * Checks the aggregate functions of a partial-update table: only fields of a sequence group
     * that are not its sequence fields may have one: an order-insensitive function ({@code sum,
     * min, max, bool_and, bool_or, product}), which folds every row that carries the group's
     * sequence whatever its order, one that picks a row by the group's ordering ({@code
     * last_value, last_non_null_value, first_value, first_non_null_value}), or one that keeps
     * every such row's value in that ordering ({@code listagg, collect, merge_map}). {@code count}
     * needs the aggregation engine's write-time counting. Also rejects {@code
     * partial-update.remove-record-on-delete} together with sequence groups.
     */
    static void checkFunctions(
            String owner,
            TableSchema schema,
            SequenceGroups groups,
            AggregateFunction[] functions,
            boolean removeOnDelete) {
        if (removeOnDelete && !groups.isEmpty()) {
            throw new IllegalArgumentException(owner + ": partial-update.remove-record-on-delete is not supported with "
                    + "sequence groups (option '" + groups.groups().get(0).option + "'): a -D would have to remove, "
                    + "in each group, only what is older than it by that group's ordering; use ignore-delete");
        }
        for (int i = 0; i < functions.length; i++) {
            AggregateFunction f = functions[i];
            if (f == null) {
                continue;
            }
            String name = schema.fields().get(i).name();
            String option = "option 'fields." + name + ".aggregate-function'";
            if (groups.groupOf(i) < 0) {
                throw new IllegalArgumentException(owner + ": " + option + ": with merge-engine=partial-update only "
                        + "fields of a sequence group may have an aggregate function; '" + name + "' is in none");
            }
            if (groups.isGroupSequenceField(i)) {
                throw new IllegalArgumentException(owner + ": " + option + ": '" + name
                        + "' is a sequence field of its group and cannot have an aggregate function");
            }
            if (f == AggregateFunction.COUNT || OrderedAggregateMergeFunction.roleOf(f) == null) {
                throw new IllegalArgumentException(owner + ": " + option + ": " + f.optionName() + " is not supported "
                        + "in a sequence group (supported: sum, product, min, max, bool_and, bool_or, last_value, "
                        + "last_non_null_value, first_value, first_non_null_value, listagg, collect, merge_map)");
            }
            String reject = f.rejectType(schema.fields().get(i).type());
            if (reject != null) {
                throw new IllegalArgumentException(owner + ": field '" + name + "' of type "
                        + schema.fields().get(i).type() + ": aggregate function " + f.optionName() + " " + reject);
            }
        }
    }

    /** What the function needs of the table, built once ({@link MergeEngines#functionFactory()}). */
    static final class Layout {
        final int arity;
        final int[] fieldIds;
        /** Row position by field id, -1 for an id the reading schema does not have. */
        final int[] positionById;

        final int[] keyFields;
        /** Value fields outside groups (the sequence field included). */
        final int[] plainFields;

        final int sequenceField;
        final Comparator<Object> ordering;
        final SequenceGroups.Group[] groups;
        final Map<Integer, Integer> groupById = new HashMap<>();
        final Comparator<Object>[] tupleComparators; // by field position, for group sequence fields
        /** By position: group members with an order-insensitive aggregate function. */
        final AggregateFunction[] functions;
        /**
         * Per group: whether a member has an order-insensitive or an element function, so that
         * every row carrying the group's sequence changes the group's value.
         */
        final boolean[] aggregates;
        /** By position: the role of a group member that picks a row by the group's ordering, else null. */
        final OrderedAggregateMergeFunction.Role[] memberRoles;
        /** Per group: its members with a {@link #memberRoles role}. */
        final int[][] orderedMembers;
        /** By position: the function of a group member that keeps its elements ({@link OrderedElements}), else null. */
        final AggregateFunction[] elementFunctions;

        final TableSchema schema;

        final DataType[] types;
        final boolean removeOnDelete;

        @SuppressWarnings("unchecked")
        Layout(
                TableSchema schema,
                int sequenceField,
                SequenceGroups groups,
                AggregateFunction[] functions,
                boolean removeOnDelete) {
            this.arity = schema.fields().size();
            this.fieldIds = new int[arity];
            this.positionById = new int[schema.highestFieldId() + 1];
            Arrays.fill(positionById, -1);
            this.types = schema.types().toArray(new DataType[0]);
            for (int i = 0; i < arity; i++) {
                fieldIds[i] = schema.fields().get(i).id();
                positionById[fieldIds[i]] = i;
            }
            this.keyFields = schema.primaryKeyIndexes();
            boolean[] isKey = new boolean[arity];
            for (int k : keyFields) {
                isKey[k] = true;
            }
            List<Integer> plain = new ArrayList<>();
            for (int i = 0; i < arity; i++) {
                if (!isKey[i] && groups.groupOf(i) < 0) {
                    plain.add(i);
                }
            }
            this.plainFields = plain.stream().mapToInt(Integer::intValue).toArray();
            this.sequenceField = sequenceField;
            // raw-capable comparators: compaction may hand STRING values over as UTF-8 bytes
            this.ordering = sequenceField >= 0 ? ValueComparators.forType(types[sequenceField], true) : (a, b) -> 0;
            this.groups = groups.groups().toArray(new SequenceGroups.Group[0]);
            this.tupleComparators = new Comparator[arity];
            for (int g = 0; g < this.groups.length; g++) {
                groupById.put(this.groups[g].id, g);
                for (int s : this.groups[g].sequenceFields) {
                    tupleComparators[s] = ValueComparators.forType(types[s], true);
                }
            }
            this.functions = functions.clone();
            this.schema = schema;
            this.memberRoles = new OrderedAggregateMergeFunction.Role[arity];
            this.elementFunctions = new AggregateFunction[arity];
            for (int i = 0; i < arity; i++) {
                OrderedAggregateMergeFunction.Role role =
                        functions[i] == null ? null : OrderedAggregateMergeFunction.roleOf(functions[i]);
                if (role == OrderedAggregateMergeFunction.Role.ELEMENTS) {
                    elementFunctions[i] = functions[i];
                    this.functions[i] = null;
                } else if (role != null && role != OrderedAggregateMergeFunction.Role.NONE) {
                    // last_value is a plain member: the group's row sets it, null included
                    memberRoles[i] = role == OrderedAggregateMergeFunction.Role.LAST ? null : role;
                    this.functions[i] = null;
                }
            }
            this.aggregates = new boolean[this.groups.length];
            this.orderedMembers = new int[this.groups.length][];
            for (int g = 0; g < this.groups.length; g++) {
                List<Integer> ordered = new ArrayList<>();
                for (int m : this.groups[g].members) {
                    aggregates[g] |= this.functions[m] != null || elementFunctions[m] != null;
                    if (memberRoles[m] != null) {
                        ordered.add(m);
                    }
                }
                orderedMembers[g] = ordered.stream().mapToInt(Integer::intValue).toArray();
            }
            this.removeOnDelete = removeOnDelete;
        }
    }

    private final Layout layout;

    // per key
    /** The first record added and how many were: a single positive record is its own partial result. */
    private KeyValue first;

    private int count;
    private KeyValue removal;
    private boolean positive;
    private Object positiveOrdering;
    private long positiveSeq;
    private long maxSeq;
    /**
     * The highest sequence number of a record folded into a group's aggregate function: every such
     * record changes the group's value, winner or not (for a pre-merged row its own sequence, the
     * highest of the records it holds).
     */
    private long aggregatedSeq;

    private final Object[] values;
    private final boolean[] set;
    private final Object[] fieldOrdering;
    private final long[] fieldSeq;
    private final boolean[] groupSet;
    private final long[] groupSeq;
    /** Per position, for a member with a role: whether it has a row yet, that row's tuple and sequence. */
    private final boolean[] memberSet;

    private final Object[][] memberTuple;
    private final long[] memberSeq;

    // scratch: the decoded ordering state of the record being added
    private final boolean[] hasOverride;
    private final Object[] overrideOrdering;
    private final long[] overrideSeq;
    private final boolean[] hasGroupOverride;
    private final long[] groupOverrideSeq;
    private final boolean[] hasMemberOverride;
    private final Object[][] memberOverrideTuple;
    private final long[] memberOverrideSeq;
    private final Overrides overrides = new Overrides();
    private final GroupElementMembers elementMembers;

    OrderedPartialUpdateMergeFunction(Layout layout) {
        this.layout = layout;
        int n = layout.arity;
        values = new Object[n];
        set = new boolean[n];
        fieldOrdering = new Object[n];
        fieldSeq = new long[n];
        hasOverride = new boolean[n];
        overrideOrdering = new Object[n];
        overrideSeq = new long[n];
        groupSet = new boolean[layout.groups.length];
        groupSeq = new long[layout.groups.length];
        hasGroupOverride = new boolean[layout.groups.length];
        groupOverrideSeq = new long[layout.groups.length];
        memberSet = new boolean[n];
        memberTuple = new Object[n][];
        memberSeq = new long[n];
        hasMemberOverride = new boolean[n];
        memberOverrideTuple = new Object[n][];
        memberOverrideSeq = new long[n];
        elementMembers =
                new GroupElementMembers(layout.schema, layout.groups, layout.elementFunctions, layout.tupleComparators);
    }

    @Override
    public void reset() {
        first = null;
        count = 0;
        removal = null;
        positive = false;
        positiveOrdering = null;
        positiveSeq = Long.MIN_VALUE;
        maxSeq = Long.MIN_VALUE;
        aggregatedSeq = Long.MIN_VALUE;
        Arrays.fill(values, null);
        Arrays.fill(set, false);
        Arrays.fill(fieldOrdering, null);
        Arrays.fill(groupSet, false);
        Arrays.fill(memberSet, false);
        Arrays.fill(memberTuple, null);
        elementMembers.reset();
    }

    private int compare(Object o1, long s1, Object o2, long s2) {
        int r = layout.ordering.compare(o1, o2);
        return r != 0 ? r : Long.compare(s1, s2);
    }

    @Override
    public void add(KeyValue kv) {
        if (count++ == 0) {
            first = kv;
        }
        Object[] r = kv.row();
        if (kv.sequence() > maxSeq) {
            maxSeq = kv.sequence();
        }
        for (int k : layout.keyFields) {
            values[k] = r[k];
        }
        RowKind kind = kv.kind();
        if (kind == RowKind.UPDATE_BEFORE) {
            return;
        }
        int seqField = layout.sequenceField;
        if (kind == RowKind.DELETE) {
            // only reaches here with remove-record-on-delete (MergeEngines.prepare)
            Object o = seqField >= 0 ? r[seqField] : null;
            if (removal == null || compare(o, kv.sequence(), ordering(removal), removal.sequence()) > 0) {
                removal = kv;
            }
            return;
        }
        long rowSeq = kv.sequence();
        boolean decoded = kv.orderings() != null;
        if (decoded) {
            rowSeq = decodeOverrides(kv.orderings(), kv.sequence());
        }
        Object rowOrdering = seqField >= 0 ? r[seqField] : null;
        if (!positive || compare(rowOrdering, rowSeq, positiveOrdering, positiveSeq) > 0) {
            positive = true;
            positiveOrdering = rowOrdering;
            positiveSeq = rowSeq;
        }
        for (int i : layout.plainFields) {
            Object v = r[i];
            if (v == null) {
                continue;
            }
            Object o = rowOrdering;
            long s = rowSeq;
            if (decoded && hasOverride[i]) {
                o = overrideOrdering[i];
                s = overrideSeq[i];
            }
            if (!set[i] || compare(o, s, fieldOrdering[i], fieldSeq[i]) > 0) {
                values[i] = v;
                set[i] = true;
                fieldOrdering[i] = o;
                fieldSeq[i] = s;
            }
        }
        SequenceGroups.Group[] groups = layout.groups;
        for (int g = 0; g < groups.length; g++) {
            if (addToGroup(g, r, decoded && hasGroupOverride[g] ? groupOverrideSeq[g] : rowSeq)
                    && layout.aggregates[g]) {
                aggregatedSeq = Math.max(aggregatedSeq, kv.sequence());
            }
        }
        if (decoded) {
            Arrays.fill(hasOverride, false);
            Arrays.fill(overrideOrdering, null);
            Arrays.fill(hasGroupOverride, false);
            Arrays.fill(hasMemberOverride, false);
            Arrays.fill(memberOverrideTuple, null);
            elementMembers.clearStored();
        }
    }

    /**
     * Folds {@code r} into group {@code g}; false when its sequence is all null (the group is left
     * alone). {@code s} is the sequence number of the row that set the group in {@code r}.
     */
    private boolean addToGroup(int g, Object[] r, long s) {
        SequenceGroups.Group group = layout.groups[g];
        boolean allNull = true;
        for (int f : group.sequenceFields) {
            if (r[f] != null) {
                allNull = false;
                break;
            }
        }
        if (allNull) {
            return false;
        }
        boolean newer = !groupSet[g];
        if (!newer) {
            int c = 0;
            for (int f : group.sequenceFields) {
                c = layout.tupleComparators[f].compare(r[f], values[f]);
                if (c != 0) {
                    break;
                }
            }
            newer = c > 0 || (c == 0 && s > groupSeq[g]);
        }
        AggregateFunction[] fns = layout.functions;
        for (int f : group.members) {
            AggregateFunction fn = fns[f];
            if (fn != null) {
                values[f] = fn.agg(layout.types[f], values[f], r[f]);
            } else if (newer && layout.memberRoles[f] == null) {
                values[f] = r[f];
            }
        }
        if (layout.orderedMembers[g].length > 0 || elementMembers.any(g)) {
            Object[] rowTuple = new Object[group.sequenceFields.length];
            for (int i = 0; i < rowTuple.length; i++) {
                rowTuple[i] = r[group.sequenceFields[i]];
            }
            for (int f : layout.orderedMembers[g]) {
                if (hasMemberOverride[f]) {
                    offerMember(g, f, r[f], memberOverrideTuple[f], memberOverrideSeq[f]);
                } else {
                    offerMember(g, f, r[f], rowTuple, s);
                }
            }
            elementMembers.add(g, r, rowTuple, s);
        }
        if (newer) {
            groupSet[g] = true;
            groupSeq[g] = s;
        }
        return true;
    }

    /** Offers member {@code f} of group {@code g} the value {@code v} of the row (tuple, s). */
    private void offerMember(int g, int f, Object v, Object[] tuple, long s) {
        OrderedAggregateMergeFunction.Role role = layout.memberRoles[f];
        boolean first = role == OrderedAggregateMergeFunction.Role.FIRST
                || role == OrderedAggregateMergeFunction.Role.FIRST_NON_NULL;
        if (v == null && role != OrderedAggregateMergeFunction.Role.FIRST) {
            return; // the non-null roles skip a null
        }
        if (memberSet[f]) {
            int c = compareTuples(layout.groups[g], tuple, s, memberTuple[f], memberSeq[f]);
            if (first ? c >= 0 : c <= 0) {
                return;
            }
        }
        memberSet[f] = true;
        memberTuple[f] = tuple;
        memberSeq[f] = s;
        values[f] = v;
    }

    private int compareTuples(SequenceGroups.Group group, Object[] t1, long s1, Object[] t2, long s2) {
        for (int i = 0; i < group.sequenceFields.length; i++) {
            int c = layout.tupleComparators[group.sequenceFields[i]].compare(t1[i], t2[i]);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(s1, s2);
    }

    /** Fills the override scratch from {@code bytes}; returns the row's own sequence. */
    private long decodeOverrides(byte[] bytes, long kvSeq) {
        overrides.rowSequence = kvSeq;
        OrderingState.read(bytes, overrides);
        return overrides.rowSequence;
    }

    /** Where a record's ordering state is decoded to: the override scratch of this function. */
    private final class Overrides implements OrderingState.Sink {
        long rowSequence;

        @Override
        public void rowSequence(long seq) {
            rowSequence = seq;
        }

        @Override
        public void field(int fieldId, Object ordering, long seq) {
            int pos = fieldId < layout.positionById.length ? layout.positionById[fieldId] : -1;
            if (pos >= 0) {
                hasOverride[pos] = true;
                overrideOrdering[pos] = ordering;
                overrideSeq[pos] = seq;
            }
        }

        @Override
        public void group(int groupId, long seq) {
            Integer g = layout.groupById.get(groupId);
            if (g != null) {
                hasGroupOverride[g] = true;
                groupOverrideSeq[g] = seq;
            }
        }

        @Override
        public void member(int fieldId, Object[] tuple, long seq) {
            int pos = fieldId < layout.positionById.length ? layout.positionById[fieldId] : -1;
            if (pos >= 0 && layout.memberRoles[pos] != null) {
                hasMemberOverride[pos] = true;
                memberOverrideTuple[pos] = tuple;
                memberOverrideSeq[pos] = seq;
            }
        }

        @Override
        public void elements(int fieldId, List<OrderingState.ElementRun> runs) {
            int pos = fieldId < layout.positionById.length ? layout.positionById[fieldId] : -1;
            if (pos >= 0) {
                elementMembers.stored(pos, runs);
            }
        }
    }

    private Object ordering(KeyValue kv) {
        return layout.sequenceField >= 0 ? kv.row()[layout.sequenceField] : null;
    }

    /** Whether the row exists: its highest positive record orders above the highest -D. */
    private boolean exists() {
        return positive
                && (removal == null
                        || compare(positiveOrdering, positiveSeq, ordering(removal), removal.sequence()) > 0);
    }

    /** Whether the plain field's value survives the removal: it orders above the highest -D. */
    private boolean survives(int i) {
        return set[i]
                && (removal == null
                        || compare(fieldOrdering[i], fieldSeq[i], ordering(removal), removal.sequence()) > 0);
    }

    private Object[] row() {
        Object[] row = values.clone();
        elementMembers.fill(row);
        if (removal != null) {
            for (int i : layout.plainFields) {
                if (!survives(i)) {
                    row[i] = null;
                }
            }
        }
        return row;
    }

    private byte[] state() {
        OrderingState.Builder b = new OrderingState.Builder(layout.ordering, false);
        if (positiveSeq != maxSeq) {
            b.rowSequence(positiveSeq);
        }
        for (int i : layout.plainFields) {
            if (survives(i)
                    && (fieldSeq[i] != positiveSeq
                            || layout.ordering.compare(fieldOrdering[i], positiveOrdering) != 0)) {
                b.field(layout.fieldIds[i], fieldOrdering[i], fieldSeq[i]);
            }
        }
        for (int g = 0; g < layout.groups.length; g++) {
            if (groupSet[g] && groupSeq[g] != positiveSeq) {
                b.group(layout.groups[g].id, groupSeq[g]);
            }
            for (int f : layout.orderedMembers[g]) {
                // without an entry a member orders as its group's row
                if (memberSet[f] && memberSeq[f] != groupSeq[g]) {
                    b.member(layout.fieldIds[f], memberTuple[f], memberSeq[f]);
                }
            }
            if (groupSet[g]) {
                elementMembers.write(b, g, values, groupSeq[g]);
            }
        }
        return b.toBytes();
    }

    @Override
    public List<KeyValue> partialResult() {
        if (count == 1 && layout.groups.length == 0 && !first.kind().isRetract()) {
            // without groups a lone +I/+U is already what the merge would write (same values, same
            // state); most keys of a compaction have one version
            return List.of(first.kind() == RowKind.INSERT ? first : first.withKind(RowKind.INSERT));
        }
        List<KeyValue> out = new ArrayList<>(2);
        if (removal != null) {
            out.add(removal);
        }
        if (exists()) {
            out.add(new KeyValue(maxSeq, RowKind.INSERT, row(), state()));
        }
        return out;
    }

    /** As {@link #partialResult()}: the highest -D stays, so a late row older than it stays removed. */
    @Override
    public List<KeyValue> topLevelResult() {
        return partialResult();
    }

    @Override
    public Object[] finalResult() {
        return exists() ? row() : null;
    }

    /**
     * The highest sequence number among the records the row's state comes from (its highest
     * +I/+U, the highest -D, the record of each surviving value, of each group and of each
     * member a group's ordering picks, every record folded into a group's order-insensitive
     * aggregate function). Records added
     * later that change none of them leave it unchanged; one that does becomes one of them.
     */
    @Override
    public long resultSequence() {
        long s = Math.max(positiveSeq, aggregatedSeq);
        if (removal != null) {
            s = Math.max(s, removal.sequence());
        }
        for (int i : layout.plainFields) {
            if (survives(i)) {
                s = Math.max(s, fieldSeq[i]);
            }
        }
        for (int g = 0; g < layout.groups.length; g++) {
            if (groupSet[g]) {
                s = Math.max(s, groupSeq[g]);
            }
            for (int f : layout.orderedMembers[g]) {
                if (memberSet[f]) {
                    s = Math.max(s, memberSeq[f]);
                }
            }
        }
        return s;
    }
}
