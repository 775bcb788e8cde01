package io.strata.storage.format;

import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import java.util.List;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema of Strata files. Primary-key files start with system columns,
 * {@code _SEQUENCE_NUMBER} (INT64) and {@code _ROW_KIND} (INT32, {@link io.strata.storage.data.RowKind}
 * byte values) and, from data file version 2, {@code _ORDERINGS} (optional BINARY: the record's
 * hidden ordering state, {@link io.strata.storage.data.KeyValue#orderings()}), followed by the
 * table's columns in schema order, each carrying its field id. System columns carry no field id.
 */
public final class ParquetSchemas {
    public static final String SEQUENCE_COLUMN = "_SEQUENCE_NUMBER";
    public static final String ROW_KIND_COLUMN = "_ROW_KIND";
    public static final String ORDERINGS_COLUMN = "_ORDERINGS";
    /** Number of system columns before the user columns in a primary-key file this version writes. */
    public static final int SYSTEM_COLUMNS = 3;

    private ParquetSchemas() {}

    public static MessageType messageType(List<DataField> fields, boolean withSystemColumns) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        if (withSystemColumns) {
            b.addField(Types.required(PrimitiveTypeName.INT64).named(SEQUENCE_COLUMN));
            b.addField(Types.required(PrimitiveTypeName.INT32).named(ROW_KIND_COLUMN));
            b.addField(Types.optional(PrimitiveTypeName.BINARY).named(ORDERINGS_COLUMN));
        }
        for (DataField f : fields) {
            b.addField(columnType(f));
        }
        return b.named("strata");
    }

    static Type columnType(DataField f) {
        DataType t = f.type();
        Type.Repetition rep = t.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        Types.PrimitiveBuilder<PrimitiveType> p;
        switch (t.root()) {
            case BOOLEAN:
                p = Types.primitive(PrimitiveTypeName.BOOLEAN, rep);
                break;
            case INT:
                p = Types.primitive(PrimitiveTypeName.INT32, rep);
                break;
            case BIGINT:
                p = Types.primitive(PrimitiveTypeName.INT64, rep);
                break;
            case FLOAT:
                p = Types.primitive(PrimitiveTypeName.FLOAT, rep);
                break;
            case DOUBLE:
                p = Types.primitive(PrimitiveTypeName.DOUBLE, rep);
                break;
            case DECIMAL:
                p = Types.primitive(PrimitiveTypeName.BINARY, rep)
                        .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision()));
                break;
            case STRING:
                p = Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType());
                break;
            case BYTES:
                p = Types.primitive(PrimitiveTypeName.BINARY, rep);
                break;
            case DATE:
                p = Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.dateType());
                break;
            case TIMESTAMP:
                p = Types.primitive(PrimitiveTypeName.INT64, rep)
                        .as(LogicalTypeAnnotation.timestampType(
                                false,
                                t.precision() == 3
                                        ? LogicalTypeAnnotation.TimeUnit.MILLIS
                                        : LogicalTypeAnnotation.TimeUnit.MICROS));
                break;
            default:
                throw new IllegalArgumentException("unsupported type " + t);
        }
        return p.id(f.id()).named(f.name());
    }
}
