package io.strata.bench;

import io.strata.cli.workload.WorkloadSchema;
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
        Schema.Builder b = Schema.newBuilder();
        for (WorkloadSchema.Column c : WorkloadSchema.COLUMNS) {
            DataType t = type(c.type());
            b.column(c.name(), c.nullable() ? t : t.notNull());
        }
        WorkloadSchema.TABLE_OPTIONS.forEach(b::option);
        extra.forEach(b::option);
        return b.primaryKey(WorkloadSchema.PRIMARY_KEY).build();
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
