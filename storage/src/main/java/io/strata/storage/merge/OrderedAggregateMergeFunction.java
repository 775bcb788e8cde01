package io.strata.storage.merge;

import io.strata.storage.data.KeyValue;
import io.strata.storage.data.RowKind;
import io.strata.storage.data.ValueComparators;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * aggregation under {@code sequence.field}. Order-insensitive functions fold as without it;
 * each order-sensitive one ({@link Role}) keeps the value of one record chosen by (sequence-field
 * value, sequence number), or, for listagg, collect and merge_map, the values of every record as
 * pieces in that order ({@link OrderedElements}), and remembers those orderings, so merging is
 * commutative and associative over records and pre-merged rows and the result does not depend
 * on how rows were grouped into commits, flushes or compactions. -U/-D retract
 * ({@code aggregation.remove-record-on-delete} is rejected with {@code sequence.field}); a
 * retraction is a record that sets {@code last_value}, and {@code last_non_null_value} when it
 * retracts a non-null value, to null at its ordering; the element functions cannot retract (their
 * retractions are rejected at write time or ignored with {@code ignore-retract}).
 *
 * <p>Partial result: the accumulated row, when a +I/+U was added, with sequence number the highest
 * added and an {@link KeyValue#orderings() ordering state} naming, for every order-sensitive
 * field that has a value, the ordering of the record it came from (a field without an entry has
 * none yet), and for every element field the runs of its value; otherwise the retractions as they
 * came, as {@link AggregateMergeFunction} does.
 */
final class OrderedAggregateMergeFunction implements MergeFunction {

    /** How an order-sensitive function picks its record. */
    enum Role {
        /** The value of the highest record, null and retractions included. */
        LAST,
        /** The value of the highest record with a non-null value. */
        LAST_NON_NULL,
        /** The value of the lowest record, null included (its retractions are rejected or ignored). */
        FIRST,
        /** The value of the lowest record with a non-null value. */
        FIRST_NON_NULL,
        /** Every record's value, kept as pieces in ordering order (listagg, collect, merge_map). */
        ELEMENTS,
        /** Not order-sensitive: folds as without {@code sequence.field}. */
        NONE
    }

    /**
     * The role of {@code f} under {@code sequence.field}, or null when it has no exact ordered
     * form and the combination is rejected. Functions added to {@link AggregateFunction} are
     * rejected here until they are classified: an order-sensitive function folded in arrival order
     * would silently depend on commit grouping. {@code first_value} keeps the lowest record's
     * value, null included, as it keeps the first arrival's without {@code sequence.field}.
     */
    static Role roleOf(AggregateFunction f) {
        switch (f.name()) {
            case "SUM":
            case "COUNT":
            case "MIN":
            case "MAX":
            case "BOOL_AND":
            case "BOOL_OR":
            case "PRODUCT":
                return Role.NONE;
            case "LAST_VALUE":
                return Role.LAST;
            case "LAST_NON_NULL_VALUE":
                return Role.LAST_NON_NULL;
            case "FIRST_VALUE":
                return Role.FIRST;
            case "FIRST_NON_NULL_VALUE":
                return Role.FIRST_NON_NULL;
            case "LISTAGG":
            case "COLLECT":
            case "COLLECT_DISTINCT":
            case "MERGE_MAP":
                return Role.ELEMENTS;
            default:
                return null;
        }
    }

    /**
     * Rejects what {@code sequence.field} cannot answer exactly under aggregation: an
     * order-sensitive function without an ordered form ({@link #roleOf}), and
     * {@code aggregation.remove-record-on-delete} (removing "what is older than the delete" would
     * need every sum and count contribution kept with its ordering).
     */
    static void check(
            String owner,
            TableSchema schema,
            AggregateFunction[] functions,
            boolean removeOnDelete,
            int sequenceField) {
        String sequence =
                "sequence.field '" + schema.fields().get(sequenceField).name() + "'";
        if (removeOnDelete) {
            throw new IllegalArgumentException(owner + ": aggregation.remove-record-on-delete is not supported with "
                    + sequence + " (a -D could not remove only the contributions older than it)");
        }
        for (int i = 0; i < functions.length; i++) {
            if (functions[i] != null && roleOf(functions[i]) == null) {
                String field = schema.fields().get(i).name();
                throw new IllegalArgumentException(owner + ": field '" + field + "': aggregate function "
                        + functions[i].optionName() + " is not supported with " + sequence + ": it has no "
                        + "ordered form, and folded in arrival order the table would depend on how rows were "
                        + "grouped into commits (option 'fields." + field + ".aggregate-function'; drop "
                        + "sequence.field to fold in arrival order)");
            }
        }
    }

    /** What the function needs of the table, built once. */
    static final class Layout {
        final DataType[] types;
        final AggregateFunction[] functions;
        final boolean[] ignoreRetract;
        final Role[] roles;
        /** Fields with a role that picks one record (not {@link Role#ELEMENTS}). */
        final int[] orderedFields;
        /** Fields with {@link Role#ELEMENTS}. */
        final int[] elementFields;

        final TableSchema schema;
        final int[] fieldIds;
        /** Row position by field id, -1 for an id the reading schema does not have. */
        final int[] positionById;

        final int sequenceField;
        final Comparator<Object> ordering;

        Layout(TableSchema schema, AggregateFunction[] functions, boolean[] ignoreRetract, int sequenceField) {
            this.types = schema.types().toArray(new DataType[0]);
            this.functions = functions;
            this.ignoreRetract = ignoreRetract;
            this.roles = new Role[types.length];
            this.fieldIds = new int[types.length];
            this.positionById = new int[schema.highestFieldId() + 1];
            Arrays.fill(positionById, -1);
            this.schema = schema;
            List<Integer> ordered = new ArrayList<>();
            List<Integer> elements = new ArrayList<>();
            for (int i = 0; i < types.length; i++) {
                fieldIds[i] = schema.fields().get(i).id();
                positionById[fieldIds[i]] = i;
                roles[i] = functions[i] == null ? Role.NONE : roleOf(functions[i]);
                if (roles[i] == Role.ELEMENTS) {
                    elements.add(i);
                } else if (roles[i] != Role.NONE) {
                    ordered.add(i);
                }
            }
            this.orderedFields = ordered.stream().mapToInt(Integer::intValue).toArray();
            this.elementFields = elements.stream().mapToInt(Integer::intValue).toArray();
            this.sequenceField = sequenceField;
            this.ordering = ValueComparators.forType(types[sequenceField], true);
        }

        /** The element accumulator of field {@code i}, ordered by the sequence-field value (a 1-tuple). */
        OrderedElements elements(int i) {
            return new OrderedElements(
                    functions[i],
                    types[i],
                    (a, b) -> ordering.compare(a[0], b[0]),
                    schema.fields().get(i).name());
        }
    }

    private final Layout layout;
    private Object[] acc;
    private boolean positive;
    private long maxSeq;
    private final List<KeyValue> added = new ArrayList<>();
    private final boolean[] set;
    private final Object[] fieldOrdering;
    private final long[] fieldSeq;
    /** By position: the element accumulator of an {@link Role#ELEMENTS} field, else null. */
    private final OrderedElements[] elements;
    /** Scratch: the runs of each element field in the pre-merged row being added. */
    private final List<List<OrderingState.ElementRun>> storedRuns;

    OrderedAggregateMergeFunction(Layout layout) {
        this.layout = layout;
        int n = layout.types.length;
        set = new boolean[n];
        fieldOrdering = new Object[n];
        fieldSeq = new long[n];
        elements = new OrderedElements[n];
        storedRuns = new ArrayList<>(java.util.Collections.nCopies(n, null));
        for (int i : layout.elementFields) {
            elements[i] = layout.elements(i);
        }
    }

    @Override
    public void reset() {
        acc = null;
        positive = false;
        maxSeq = Long.MIN_VALUE;
        added.clear();
        Arrays.fill(set, false);
        Arrays.fill(fieldOrdering, null);
        for (int i : layout.elementFields) {
            elements[i].reset();
        }
    }

    private int compare(Object o1, long s1, Object o2, long s2) {
        int r = layout.ordering.compare(o1, o2);
        return r != 0 ? r : Long.compare(s1, s2);
    }

    @Override
    public void add(KeyValue kv) {
        added.add(kv);
        maxSeq = Math.max(maxSeq, kv.sequence());
        Object[] row = kv.row();
        DataType[] types = layout.types;
        if (acc == null) {
            acc = new Object[types.length];
        }
        boolean retract = kv.kind().isRetract();
        AggregateFunction[] fns = layout.functions;
        for (int i = 0; i < types.length; i++) {
            AggregateFunction f = fns[i];
            if (f == null) {
                acc[i] = row[i];
            } else if (layout.roles[i] == Role.NONE) {
                if (!retract) {
                    acc[i] = f.agg(types[i], acc[i], row[i]);
                } else if (!layout.ignoreRetract[i]) {
                    acc[i] = f.retract(types[i], acc[i], row[i]);
                }
            }
        }
        Object rowOrdering = row[layout.sequenceField];
        long rowSeq = kv.sequence();
        if (kv.orderings() != null) {
            // a pre-merged row: each ordered field with a value has its entry; the others have none
            OrderingState.read(kv.orderings(), new OrderingState.Sink() {
                @Override
                public void rowSequence(long seq) {}

                @Override
                public void field(int fieldId, Object ordering, long seq) {
                    int pos = fieldId < layout.positionById.length ? layout.positionById[fieldId] : -1;
                    if (pos >= 0 && layout.roles[pos] != Role.NONE) {
                        offer(pos, row[pos], ordering, seq);
                    }
                }

                @Override
                public void group(int groupId, long seq) {}

                @Override
                public void elements(int fieldId, List<OrderingState.ElementRun> runs) {
                    int pos = fieldId < layout.positionById.length ? layout.positionById[fieldId] : -1;
                    if (pos >= 0 && layout.roles[pos] == Role.ELEMENTS) {
                        storedRuns.set(pos, runs);
                    }
                }
            });
            for (int i : layout.elementFields) {
                // a pre-merged value without runs holds no element (null, or only empty inputs)
                List<OrderingState.ElementRun> runs = storedRuns.set(i, null);
                elements[i].addPreMerged(row[i], runs == null ? List.of() : runs);
            }
        } else {
            if (!retract) {
                Object[] ordering = {rowOrdering};
                for (int i : layout.elementFields) {
                    elements[i].add(ordering, rowSeq, row[i]);
                }
            }
            for (int i : layout.orderedFields) {
                Role role = layout.roles[i];
                if (retract) {
                    // a retraction orders like a row that sets null: last_value's always,
                    // last_non_null_value's when it retracts a value (as without sequence.field)
                    if (!layout.ignoreRetract[i]
                            && (role == Role.LAST || (role == Role.LAST_NON_NULL && row[i] != null))) {
                        offer(i, null, rowOrdering, rowSeq);
                    }
                } else if (role == Role.LAST || role == Role.FIRST || row[i] != null) {
                    offer(i, row[i], rowOrdering, rowSeq);
                }
            }
        }
        positive |= !retract;
    }

    private void offer(int i, Object value, Object o, long s) {
        boolean takes;
        if (!set[i]) {
            takes = true;
        } else {
            int c = compare(o, s, fieldOrdering[i], fieldSeq[i]);
            Role role = layout.roles[i];
            takes = role == Role.FIRST || role == Role.FIRST_NON_NULL ? c < 0 : c > 0;
        }
        if (takes) {
            set[i] = true;
            acc[i] = value;
            fieldOrdering[i] = o;
            fieldSeq[i] = s;
        }
    }

    @Override
    public List<KeyValue> partialResult() {
        if (added.size() == 1) {
            // a lone record is its own partial result: a raw one orders as itself, a pre-merged one
            // keeps its state
            KeyValue only = added.get(0);
            return List.of(only.kind() == RowKind.UPDATE_AFTER ? only.withKind(RowKind.INSERT) : only);
        }
        if (positive) {
            OrderingState.Builder b = new OrderingState.Builder(layout.ordering, true);
            for (int i : layout.orderedFields) {
                if (set[i]) {
                    b.field(layout.fieldIds[i], fieldOrdering[i], fieldSeq[i]);
                }
            }
            for (int i : layout.elementFields) {
                if (!elements[i].runs().isEmpty()) {
                    b.elements(layout.fieldIds[i], elements[i].runs());
                }
            }
            return List.of(new KeyValue(maxSeq, RowKind.INSERT, composed(), b.toBytes()));
        }
        return new ArrayList<>(added); // only retractions: kept as they came
    }

    @Override
    public List<KeyValue> topLevelResult() {
        return partialResult();
    }

    @Override
    public Object[] finalResult() {
        return positive ? composed() : null;
    }

    /** A copy of the accumulated row with the element fields' values composed. */
    private Object[] composed() {
        Object[] row = acc.clone();
        for (int i : layout.elementFields) {
            row[i] = elements[i].value();
        }
        return row;
    }

    /** Every record folds into the accumulator (order-insensitive fields at least), so each takes effect. */
    @Override
    public long resultSequence() {
        return maxSeq;
    }
}
