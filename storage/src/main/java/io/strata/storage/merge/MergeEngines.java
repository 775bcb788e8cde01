package io.strata.storage.merge;

import io.strata.storage.data.GenericRow;
import io.strata.storage.data.RowKind;
import io.strata.storage.options.MergeOptions;
import io.strata.storage.options.MergeOptions.MergeEngine;
import io.strata.storage.options.TableOptions;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The merge engine of a table: validates its options, creates {@link MergeFunction}s, and
 * prepares incoming rows at write time ({@link #prepare}), where inputs an engine cannot accept
 * are rejected with a clear error before anything is written.
 */
public final class MergeEngines {
    private final String tableName;
    private final TableSchema schema;
    private final MergeEngine engine;
    private final boolean ignoreDelete;
    private final boolean removeOnDelete;
    private final AggregateFunction[] functions;
    private final boolean[] ignoreRetract;
    private final int sequenceFieldIndex;
    private final SequenceGroups sequenceGroups;
    /** Aggregation with a count field: the writer normalizes count inputs (checked once, used per row). */
    private final boolean hasCount;

    private MergeEngines(String tableName, TableSchema schema) {
        this.tableName = tableName;
        this.schema = schema;
        TableOptions o = schema.tableOptions();
        this.engine = o.get(MergeOptions.MERGE_ENGINE);
        this.ignoreDelete = o.get(MergeOptions.IGNORE_DELETE);
        this.removeOnDelete = engine == MergeEngine.PARTIAL_UPDATE
                ? o.get(MergeOptions.PARTIAL_UPDATE_REMOVE_ON_DELETE)
                : engine == MergeEngine.AGGREGATION && o.get(MergeOptions.AGGREGATION_REMOVE_ON_DELETE);
        List<DataField> fields = schema.fields();
        this.functions = new AggregateFunction[fields.size()];
        this.ignoreRetract = new boolean[fields.size()];
        boolean[] distinct = new boolean[fields.size()];
        String owner = "table " + tableName;
        for (Map.Entry<String, String> e : o.toMap().entrySet()) {
            String k = e.getKey();
            if (k.startsWith("fields.")
                    && (k.endsWith(".aggregate-function")
                            || k.endsWith(".ignore-retract")
                            || k.endsWith(".distinct"))) {
                String field = k.substring("fields.".length(), k.lastIndexOf('.'));
                int idx = schema.fieldIndex(field);
                if (idx < 0) {
                    throw new IllegalArgumentException(
                            owner + ": option '" + k + "' names unknown field '" + field + "'");
                }
                boolean groupFunction = engine == MergeEngine.PARTIAL_UPDATE
                        && (k.endsWith(".aggregate-function") || k.endsWith(".distinct"));
                if (engine != MergeEngine.AGGREGATION && !groupFunction) {
                    throw new IllegalArgumentException(owner + ": option '" + k + "' needs merge-engine=aggregation"
                            + (engine == MergeEngine.PARTIAL_UPDATE
                                    ? ""
                                    : " (or partial-update, for a field of a " + "sequence group)"));
                }
                if (k.endsWith(".ignore-retract")) {
                    ignoreRetract[idx] = Boolean.parseBoolean(e.getValue().trim());
                } else if (k.endsWith(".distinct")) {
                    distinct[idx] = parseDistinct(owner, k, e.getValue());
                } else {
                    functions[idx] = AggregateFunction.fromOption(owner, field, e.getValue());
                }
            }
        }
        for (int i = 0; i < fields.size(); i++) {
            if (distinct[i]) {
                if (functions[i] != AggregateFunction.COLLECT) {
                    throw new IllegalArgumentException(
                            owner + ": option 'fields." + fields.get(i).name() + ".distinct' needs fields."
                                    + fields.get(i).name() + ".aggregate-function=collect");
                }
                functions[i] = functions[i].withDistinct();
            }
        }
        for (int i : schema.primaryKeyIndexes()) {
            if (functions[i] != null) {
                throw new IllegalArgumentException(
                        owner + ": primary key field '" + fields.get(i).name() + "' cannot have an aggregate function");
            }
        }
        if (engine == MergeEngine.AGGREGATION) {
            boolean[] isKey = new boolean[fields.size()];
            for (int i : schema.primaryKeyIndexes()) {
                isKey[i] = true;
            }
            for (int i = 0; i < fields.size(); i++) {
                if (!isKey[i] && functions[i] == null) {
                    functions[i] = AggregateFunction.LAST_NON_NULL_VALUE;
                }
                if (functions[i] != null) {
                    String reject = functions[i].rejectType(fields.get(i).type());
                    if (reject != null) {
                        throw new IllegalArgumentException(
                                owner + ": field '" + fields.get(i).name() + "' of type "
                                        + fields.get(i).type() + ": aggregate function " + functions[i].optionName()
                                        + " " + reject);
                    }
                }
            }
        }
        this.hasCount = Arrays.asList(functions).contains(AggregateFunction.COUNT);
        String seqField = o.get(MergeOptions.SEQUENCE_FIELD);
        this.sequenceFieldIndex = seqField == null ? -1 : schema.fieldIndex(seqField);
        if (seqField != null) {
            checkSequenceField(owner, schema, seqField, sequenceFieldIndex);
            if (engine == MergeEngine.AGGREGATION) {
                OrderedAggregateMergeFunction.check(owner, schema, functions, removeOnDelete, sequenceFieldIndex);
            }
        }
        this.sequenceGroups = SequenceGroups.of(owner, schema, engine, sequenceFieldIndex);
        if (engine == MergeEngine.PARTIAL_UPDATE) {
            OrderedPartialUpdateMergeFunction.checkFunctions(owner, schema, sequenceGroups, functions, removeOnDelete);
        }
    }

    /**
     * A sequence field is a value column of a scalar type: every scalar type has a total order
     * (docs/DESIGN.md, "Ordering"), a null value ordering first. A key field would order nothing
     * (every version of a key has the same value), and an ARRAY, MAP or ROW is no ordering value.
     */
    private static void checkSequenceField(String owner, TableSchema schema, String name, int index) {
        String option = owner + ": sequence.field '" + name + "'";
        if (index < 0) {
            throw new IllegalArgumentException(option + " is not a column");
        }
        for (int k : schema.primaryKeyIndexes()) {
            if (k == index) {
                throw new IllegalArgumentException(option + " is a primary key field: every version of a key has "
                        + "the same value, so it would order nothing");
            }
        }
        DataType type = schema.fields().get(index).type();
        if (type.isNested()) {
            throw new IllegalArgumentException(option + " is of type " + type.typeName() + ", which is no ordering "
                    + "value; use a numeric, date, time, timestamp or string column");
        }
    }

    private static boolean parseDistinct(String owner, String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (!v.equals("true") && !v.equals("false")) {
            throw new IllegalArgumentException(
                    owner + ": option '" + key + "' must be true or false, not '" + value + "'");
        }
        return v.equals("true");
    }

    /** Validates the engine options of {@code schema}; the error names the table and option. */
    public static MergeEngines of(String tableName, TableSchema schema) {
        return new MergeEngines(tableName, schema);
    }

    public MergeEngine engine() {
        return engine;
    }

    /**
     * Whether the merge functions never look into STRING values (they only keep, overwrite or
     * drop them, or order by them with raw-capable comparators), so a compaction may carry them as
     * raw UTF-8 bytes: every table where no STRING field has an aggregate function (aggregation,
     * or partial-update with a function in a sequence group).
     */
    public boolean acceptsRawStrings() {
        for (int i = 0; i < functions.length; i++) {
            if (functions[i] != null && schema.fields().get(i).type().root() == DataType.Root.STRING) {
                return false;
            }
        }
        return true;
    }

    /** Index of the sequence field in the row, or -1. */
    public int sequenceFieldIndex() {
        return sequenceFieldIndex;
    }

    public Supplier<MergeFunction> functionFactory() {
        switch (engine) {
            case DEDUPLICATE: {
                boolean tombstones = sequenceFieldIndex >= 0;
                return () -> new DeduplicateMergeFunction(tombstones);
            }
            case FIRST_ROW:
                return FirstRowMergeFunction::new;
            case PARTIAL_UPDATE: {
                if (sequenceFieldIndex >= 0 || !sequenceGroups.isEmpty()) {
                    OrderedPartialUpdateMergeFunction.Layout layout = new OrderedPartialUpdateMergeFunction.Layout(
                            schema, sequenceFieldIndex, sequenceGroups, functions.clone(), removeOnDelete);
                    return () -> new OrderedPartialUpdateMergeFunction(layout);
                }
                int arity = schema.fields().size();
                return () -> new PartialUpdateMergeFunction(arity);
            }
            case AGGREGATION: {
                if (sequenceFieldIndex >= 0) {
                    OrderedAggregateMergeFunction.Layout layout = new OrderedAggregateMergeFunction.Layout(
                            schema, functions.clone(), ignoreRetract.clone(), sequenceFieldIndex);
                    return () -> new OrderedAggregateMergeFunction(layout);
                }
                DataType[] types = schema.types().toArray(new DataType[0]);
                return () ->
                        new AggregateMergeFunction(types, functions.clone(), ignoreRetract.clone(), removeOnDelete);
            }
            default:
                throw new IllegalStateException(engine.toString());
        }
    }

    /**
     * Prepares an incoming row for the write buffer: null to drop it, else the row to store.
     * Rejects retractions the engine cannot handle. Aggregation stores 1 for a non-null count input.
     */
    public Object[] prepare(GenericRow row) {
        RowKind kind = row.kind();
        if (kind.isRetract()) {
            if (ignoreDelete) {
                return null;
            }
            switch (engine) {
                case FIRST_ROW:
                    throw new IllegalArgumentException(
                            "table " + tableName + ": merge-engine=first-row does not accept " + kind.shortString()
                                    + " rows; set ignore-delete=true to drop them");
                case PARTIAL_UPDATE:
                    if (!removeOnDelete) {
                        throw new IllegalArgumentException("table " + tableName
                                + ": merge-engine=partial-update does not "
                                + "accept " + kind.shortString() + " rows; set ignore-delete=true to drop them or "
                                + "partial-update.remove-record-on-delete=true to make -D remove the row");
                    }
                    break;
                case AGGREGATION:
                    if (!(removeOnDelete && kind == RowKind.DELETE)) {
                        checkRetractable(kind);
                    }
                    break;
                default:
                    break;
            }
        }
        if (hasCount) {
            Object[] copy = row.fields().clone();
            for (int i = 0; i < copy.length; i++) {
                if (functions[i] == AggregateFunction.COUNT && copy[i] != null) {
                    copy[i] = schema.fields().get(i).type().root() == DataType.Root.INT ? (Object) 1 : (Object) 1L;
                }
            }
            return copy;
        }
        return row.fields();
    }

    private void checkRetractable(RowKind kind) {
        for (int i = 0; i < functions.length; i++) {
            if (functions[i] != null && !functions[i].supportsRetract() && !ignoreRetract[i]) {
                throw new IllegalArgumentException("table " + tableName + ": " + kind.shortString() + " row cannot be "
                        + "applied: aggregate function " + functions[i].optionName() + " of field '"
                        + schema.fields().get(i).name() + "' cannot retract; set fields."
                        + schema.fields().get(i).name() + ".ignore-retract=true to skip retractions for it");
            }
        }
    }
}
