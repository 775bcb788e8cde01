package io.strata.storage.format;

import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import java.util.List;
import org.apache.parquet.schema.GroupType;
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

    /** Whether {@code name} is a system column's (user column names never start with {@code _}). */
    static boolean isSystemColumn(String name) {
        return name.equals(SEQUENCE_COLUMN) || name.equals(ROW_KIND_COLUMN) || name.equals(ORDERINGS_COLUMN);
    }

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
        return type(f.type(), f.name(), f.id());
    }

    /**
     * The Parquet type of a value of {@code t} named {@code name}; {@code id} is the field id of a
     * table column, or -1 for a value nested in one (nested fields carry no ids: evolution adds
     * and reads whole columns only). ARRAY and MAP use the standard three-level LIST and MAP
     * encodings of the Parquet specification ({@code list}/{@code element},
     * {@code key_value}/{@code key}/{@code value}); ROW is a group of its fields.
     */
    static Type type(DataType t, String name, int id) {
        Type.Repetition rep = t.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
        Type out;
        switch (t.root()) {
            case ARRAY:
                out = Types.buildGroup(rep)
                        .as(LogicalTypeAnnotation.listType())
                        .addField(Types.repeatedGroup()
                                .addField(type(t.elementType(), "element", -1))
                                .named("list"))
                        .named(name);
                break;
            case MAP:
                out = Types.buildGroup(rep)
                        .as(LogicalTypeAnnotation.mapType())
                        .addField(Types.repeatedGroup()
                                .addField(type(t.keyType(), "key", -1))
                                .addField(type(t.valueType(), "value", -1))
                                .named("key_value"))
                        .named(name);
                break;
            case ROW: {
                Types.GroupBuilder<GroupType> g = Types.buildGroup(rep);
                for (DataType.Field field : t.fields()) {
                    g.addField(type(field.type(), field.name(), -1));
                }
                out = g.named(name);
                break;
            }
            default:
                out = primitive(t, rep).named(name);
        }
        return id >= 0 ? out.withId(id) : out;
    }

    private static Types.PrimitiveBuilder<PrimitiveType> primitive(DataType t, Type.Repetition rep) {
        switch (t.root()) {
            case BOOLEAN:
                return Types.primitive(PrimitiveTypeName.BOOLEAN, rep);
            case TINYINT:
                return Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.intType(8, true));
            case SMALLINT:
                return Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.intType(16, true));
            case INT:
                return Types.primitive(PrimitiveTypeName.INT32, rep);
            case BIGINT:
                return Types.primitive(PrimitiveTypeName.INT64, rep);
            case FLOAT:
                return Types.primitive(PrimitiveTypeName.FLOAT, rep);
            case DOUBLE:
                return Types.primitive(PrimitiveTypeName.DOUBLE, rep);
            case DECIMAL:
                return Types.primitive(PrimitiveTypeName.BINARY, rep)
                        .as(LogicalTypeAnnotation.decimalType(t.scale(), t.precision()));
            case STRING:
            case CHAR:
            case VARCHAR:
                return Types.primitive(PrimitiveTypeName.BINARY, rep).as(LogicalTypeAnnotation.stringType());
            case BYTES:
                return Types.primitive(PrimitiveTypeName.BINARY, rep);
            case DATE:
                return Types.primitive(PrimitiveTypeName.INT32, rep).as(LogicalTypeAnnotation.dateType());
            case TIME:
                return Types.primitive(PrimitiveTypeName.INT32, rep)
                        .as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MILLIS));
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return Types.primitive(PrimitiveTypeName.INT64, rep)
                        .as(LogicalTypeAnnotation.timestampType(
                                t.root() == DataType.Root.TIMESTAMP_LTZ,
                                t.precision() == 3
                                        ? LogicalTypeAnnotation.TimeUnit.MILLIS
                                        : LogicalTypeAnnotation.TimeUnit.MICROS));
            default:
                throw new IllegalArgumentException("unsupported type " + t);
        }
    }

    /** Whether a table of these fields has a column of a nested type (whose files need record shredding and assembly). */
    static boolean hasNested(List<DataField> fields) {
        for (DataField f : fields) {
            if (f.type().isNested()) {
                return true;
            }
        }
        return false;
    }
}
