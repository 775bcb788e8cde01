package io.strata.storage.options;

/** How versions of one primary key are merged. Semantics: docs/DESIGN.md, "Merge engines". */
public final class MergeOptions {
    private MergeOptions() {}

    /** The merge engines. */
    public enum MergeEngine {
        DEDUPLICATE,
        PARTIAL_UPDATE,
        AGGREGATION,
        FIRST_ROW
    }

    public static final ConfigOption<MergeEngine> MERGE_ENGINE = ConfigOption.key("merge-engine")
            .enumType(MergeEngine.class)
            .defaultValue(MergeEngine.DEDUPLICATE)
            .definesTable()
            .withDescription("deduplicate keeps the last row of a key; partial-update overwrites with non-null fields; "
                    + "aggregation combines fields with fields.<f>.aggregate-function; first-row keeps the first row.");

    public static final ConfigOption<Boolean> IGNORE_DELETE = ConfigOption.key("ignore-delete")
            .booleanType()
            .defaultValue(false)
            .definesTable()
            .withDescription("Drop -D and -U rows at write time, for every merge engine. Defines the table: a run "
                    + "that dropped them would silently keep rows its input deleted.");

    public static final ConfigOption<String> SEQUENCE_FIELD = ConfigOption.key("sequence.field")
            .stringType()
            .noDefault()
            .definesTable()
            .withDescription("A value column of a scalar type that orders versions of a key before the sequence "
                    + "number: a late row with an "
                    + "older value never overwrites a newer one, deletes included (a null value orders first). "
                    + "deduplicate: the row with the highest value wins; first-row: the row with the lowest value "
                    + "wins (ties: the earliest arrival), so a late row with a lower value replaces the winner; "
                    + "partial-update: each field keeps the value of the highest row that set it; aggregation: "
                    + "last_value, last_non_null_value, first_value and first_non_null_value follow it, and "
                    + "listagg, collect and merge_map keep every row's value in its order (aggregation."
                    + "remove-record-on-delete is rejected). See docs/DESIGN.md, Merge engines.");

    public static final ConfigOption<Boolean> PARTIAL_UPDATE_REMOVE_ON_DELETE = ConfigOption.key(
                    "partial-update.remove-record-on-delete")
            .booleanType()
            .defaultValue(false)
            .definesTable()
            .withDescription("partial-update: a -D removes the row, so later rows start from empty "
                    + "(-U is ignored). Without it (or ignore-delete) a -D is rejected.");

    public static final ConfigOption<Boolean> AGGREGATION_REMOVE_ON_DELETE = ConfigOption.key(
                    "aggregation.remove-record-on-delete")
            .booleanType()
            .defaultValue(false)
            .definesTable()
            .withDescription("aggregation: a -D removes the row, so later rows aggregate from empty. "
                    + "Without it a -D retracts its values like -U.");

    public static final PatternOption AGGREGATE_FUNCTION = PatternOption.definesTable(
            "fields.<field>.aggregate-function",
            "last_non_null_value",
            "aggregation: the function of a value field: sum, product, count, min, max, last_value, "
                    + "last_non_null_value (default), first_value, first_non_null_value, listagg, bool_and, bool_or, "
                    + "collect (ARRAY), merge_map (MAP). sum, count, last_value and last_non_null_value retract; the "
                    + "others refuse -U/-D unless fields.<field>.ignore-retract. partial-update: a member of a sequence group "
                    + "may have sum, product, min, max, bool_and, bool_or, last_value, last_non_null_value, "
                    + "first_value, first_non_null_value, listagg, collect or merge_map (all but the first six "
                    + "follow the group's ordering). Types and semantics: docs/DESIGN.md, Merge engines.");

    public static final PatternOption SEQUENCE_GROUP = PatternOption.definesTable(
            "fields.<field>.sequence-group",
            "(none)",
            "partial-update: <field> is one sequence field, or several joined by ',', that orders the listed "
                    + "fields (',' separated) as a group: a row whose sequence values are newer than or equal to the "
                    + "group's replaces the whole group, nulls included; a row whose sequence values are all null "
                    + "leaves it. See docs/DESIGN.md, Merge engines.");

    public static final PatternOption IGNORE_RETRACT = PatternOption.definesTable(
            "fields.<field>.ignore-retract",
            "false",
            "aggregation: ignore -U/-D for this field (its value is left as it is) instead of failing when its "
                    + "function cannot retract (product, min, max, first_value, first_non_null_value, listagg, "
                    + "bool_and, bool_or, collect, merge_map).");

    public static final PatternOption DISTINCT = PatternOption.definesTable(
            "fields.<field>.distinct",
            "false",
            "aggregation, or a member of a partial-update sequence group: keep each array element of a "
                    + "collect field once (true or false), at its first occurrence, or, under an ordering, with "
                    + "the lowest row holding it. Only with fields.<field>.aggregate-function=collect.");
}
