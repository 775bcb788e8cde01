package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Which Parquet columns and value encodings {@link ColumnChunkDecoder} reads, so that anything
 * else is rejected with a message naming the column instead of being decoded into wrong values.
 * Strata writes a subset of what is accepted here; the rest is what other Parquet writers produce
 * for the same types (DECIMAL as INT32, INT64 or fixed-length bytes; the encodings of v2 pages).
 */
final class ReadableColumns {
    private ReadableColumns() {}

    /**
     * Fails unless {@code column} can be read as {@code type}: flat, of a physical type that holds
     * the type's values, and with no logical annotation that contradicts it (a DECIMAL of another
     * scale, a TIMESTAMP of another unit). A missing annotation is accepted: the read schema
     * decides what the values mean.
     *
     * @param primitive the column is read as primitives ({@link ColumnChunkDecoder#nextLong()},
     *                  {@link ColumnChunkDecoder#nextInt()}), which have no null: it must be required
     */
    static void check(ColumnDescriptor column, DataType type, boolean primitive) {
        PrimitiveType p = column.getPrimitiveType();
        if (column.getMaxRepetitionLevel() != 0) {
            throw reject(column, "is repeated; data files are flat");
        }
        if (primitive && column.getMaxDefinitionLevel() != 0) {
            throw reject(column, "is optional; it must be required");
        }
        checkLeaf(p, type, p.getName());
    }

    /**
     * Fails unless the nested column {@code file} (a top-level field of a data file) can be read as
     * {@code type} by {@link NestedConverters}: the layout {@link ParquetSchemas#type} writes, the
     * standard one of the Parquet specification, at every level: an ARRAY a group of one repeated
     * group of one element (three-level LIST; the legacy two-level forms are refused), a MAP a
     * group of one repeated group of a required key and a value, a ROW a group of the ROW's fields
     * by name in order; and leaves as {@link #check} accepts them.
     */
    static void checkNested(Type file, DataType type) {
        checkNested(file, type, file.getName());
    }

    private static void checkNested(Type file, DataType type, String path) {
        if (!type.isNested()) {
            if (!file.isPrimitive()) {
                throw reject(path, file, "is a group; it cannot be read as " + type.typeName());
            }
            checkLeaf(file.asPrimitiveType(), type, path);
            return;
        }
        if (file.isPrimitive()) {
            throw reject(path, file, "is not a group; it cannot be read as " + type.typeName());
        }
        GroupType g = file.asGroupType();
        switch (type.root()) {
            case ARRAY: {
                GroupType repeated = repeatedGroup(g, 1, path, type, "three-level LIST");
                checkNested(repeated.getType(0), type.elementType(), path + "." + repeated.getName() + ".element");
                break;
            }
            case MAP: {
                GroupType repeated = repeatedGroup(g, 2, path, type, "MAP key_value");
                if (!repeated.getType(0).isRepetition(Type.Repetition.REQUIRED)) {
                    throw reject(path, file, "has an optional map key");
                }
                String kv = path + "." + repeated.getName();
                checkNested(repeated.getType(0), type.keyType(), kv + ".key");
                checkNested(repeated.getType(1), type.valueType(), kv + ".value");
                break;
            }
            default: {
                List<DataType.Field> fields = type.fields();
                if (g.getFieldCount() != fields.size()) {
                    throw reject(
                            path,
                            file,
                            "has " + g.getFieldCount() + " fields, " + type.typeName() + " has " + fields.size());
                }
                for (int i = 0; i < fields.size(); i++) {
                    Type child = g.getType(i);
                    if (!child.getName().equals(fields.get(i).name()) || child.isRepetition(Type.Repetition.REPEATED)) {
                        throw reject(
                                path,
                                file,
                                "field " + i + " is " + child + ", " + type.typeName() + " has " + fields.get(i));
                    }
                    checkNested(child, fields.get(i).type(), path + "." + child.getName());
                }
            }
        }
    }

    private static GroupType repeatedGroup(GroupType g, int fields, String path, DataType type, String layout) {
        if (g.getFieldCount() != 1
                || g.getType(0).isPrimitive()
                || !g.getType(0).isRepetition(Type.Repetition.REPEATED)
                || g.getType(0).asGroupType().getFieldCount() != fields) {
            throw reject(path, g, "is not in the standard " + layout + " layout of " + type.typeName());
        }
        return g.getType(0).asGroupType();
    }

    /** A primitive leaf (top-level or nested) read as {@code type}. */
    private static void checkLeaf(PrimitiveType p, DataType type, String path) {
        PrimitiveTypeName physical = p.getPrimitiveTypeName();
        if (type.isNested() || !holds(physical, type.root())) {
            throw reject(path, p, "cannot be read as " + type.typeName());
        }
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (type.root() == DataType.Root.DECIMAL
                && a instanceof DecimalLogicalTypeAnnotation
                && ((DecimalLogicalTypeAnnotation) a).getScale() != type.scale()) {
            throw reject(path, p, "has another scale than " + type.typeName());
        }
        if (a instanceof IntLogicalTypeAnnotation && ((IntLogicalTypeAnnotation) a).getBitWidth() > bitWidth(type)) {
            throw reject(path, p, "holds wider integers than " + type.typeName());
        }
        if (type.root() == DataType.Root.TIME
                && a instanceof TimeLogicalTypeAnnotation
                && ((TimeLogicalTypeAnnotation) a).getUnit() != TimeUnit.MILLIS) {
            throw reject(path, p, "has another unit than milliseconds");
        }
        if ((type.root() == DataType.Root.TIMESTAMP || type.root() == DataType.Root.TIMESTAMP_LTZ)
                && a instanceof TimestampLogicalTypeAnnotation
                && ((TimestampLogicalTypeAnnotation) a).getUnit()
                        != (type.precision() == 3 ? TimeUnit.MILLIS : TimeUnit.MICROS)) {
            throw reject(path, p, "has another unit than " + type.typeName());
        }
    }

    /** The bits of the integers {@code type} holds; an INT(n) annotation wider than that would overflow. */
    private static int bitWidth(DataType type) {
        switch (type.root()) {
            case TINYINT:
                return 8;
            case SMALLINT:
                return 16;
            case BIGINT:
                return 64;
            default:
                return 32;
        }
    }

    private static boolean holds(PrimitiveTypeName physical, DataType.Root root) {
        switch (root) {
            case BOOLEAN:
                return physical == PrimitiveTypeName.BOOLEAN;
            case TINYINT:
            case SMALLINT:
            case INT:
            case DATE:
            case TIME:
                return physical == PrimitiveTypeName.INT32;
            case BIGINT:
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return physical == PrimitiveTypeName.INT64;
            case FLOAT:
                return physical == PrimitiveTypeName.FLOAT;
            case DOUBLE:
                return physical == PrimitiveTypeName.DOUBLE;
            case STRING:
            case CHAR:
            case VARCHAR:
            case BYTES:
                return physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            case DECIMAL:
                return physical == PrimitiveTypeName.BINARY
                        || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                        || physical == PrimitiveTypeName.INT32
                        || physical == PrimitiveTypeName.INT64;
            default:
                return false;
        }
    }

    /**
     * Whether data pages of {@code physical} values in {@code encoding} are read: the value
     * encodings the Parquet specification defines for the type, which parquet-column's readers
     * decode. Not BIT_PACKED (deprecated, levels only) nor RLE except for booleans.
     */
    static boolean readable(PrimitiveTypeName physical, Encoding encoding) {
        switch (encoding) {
            case PLAIN:
            case PLAIN_DICTIONARY:
            case RLE_DICTIONARY:
                return true;
            case RLE:
                return physical == PrimitiveTypeName.BOOLEAN;
            case DELTA_BINARY_PACKED:
                return physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64;
            case DELTA_LENGTH_BYTE_ARRAY:
                return physical == PrimitiveTypeName.BINARY;
            case DELTA_BYTE_ARRAY:
                return physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            case BYTE_STREAM_SPLIT:
                return physical == PrimitiveTypeName.FLOAT
                        || physical == PrimitiveTypeName.DOUBLE
                        || physical == PrimitiveTypeName.INT32
                        || physical == PrimitiveTypeName.INT64
                        || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
            default:
                return false;
        }
    }

    /** The rejection of a page whose values are in an encoding {@link #readable} refuses. */
    static ParquetDecodingException unreadable(ColumnDescriptor column, Encoding encoding) {
        return reject(
                column,
                "has a page of values encoded " + encoding + ", which Strata does not read for "
                        + column.getPrimitiveType().getPrimitiveTypeName() + " columns");
    }

    private static ParquetDecodingException reject(ColumnDescriptor column, String why) {
        PrimitiveType p = column.getPrimitiveType();
        return reject(p.getName(), p, why);
    }

    private static ParquetDecodingException reject(String path, Type t, String why) {
        return new ParquetDecodingException("column " + path + " (" + t + ") " + why);
    }
}
