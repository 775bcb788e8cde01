package io.strata.bench;

import io.strata.cli.workload.WorkloadSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DataTypes;

/** The workload table ({@link WorkloadSchema}) as a Paimon schema: same columns, key and table options. */
final class PaimonSchema {
    private PaimonSchema() {}

    static Schema workloadTable() {
        return workloadTable(Map.of());
    }

    /** The workload table with extra table options (e.g. changelog-producer). */
    static Schema workloadTable(Map<String, String> extra) {
        Map<String, String> options = new LinkedHashMap<>(WorkloadSchema.TABLE_OPTIONS);
        options.putAll(extra);
        return table(WorkloadSchema.COLUMNS, WorkloadSchema.PRIMARY_KEY, options);
    }

    /** A table of workload-typed columns keyed by {@code primaryKey}, with {@code options}. */
    static Schema table(List<WorkloadSchema.Column> columns, String primaryKey, Map<String, String> options) {
        Schema.Builder b = Schema.newBuilder();
        for (WorkloadSchema.Column c : columns) {
            DataType t = type(c.type());
            b.column(c.name(), c.nullable() ? t : t.notNull());
        }
        options.forEach(b::option);
        return b.primaryKey(primaryKey).build();
    }

    /** The Paimon type of a workload type root; the workload uses only these four. */
    static DataType type(String root) {
        switch (root) {
            case "BIGINT":
                return DataTypes.BIGINT();
            case "INT":
                return DataTypes.INT();
            case "DOUBLE":
                return DataTypes.DOUBLE();
            case "STRING":
                return DataTypes.STRING();
            default:
                throw new IllegalArgumentException("no Paimon mapping for workload type " + root);
        }
    }
}
