package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

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
        PrimitiveTypeName physical = p.getPrimitiveTypeName();
        if (!holds(physical, type.root())) {
            throw reject(column, "cannot be read as " + type.typeName());
        }
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (type.root() == DataType.Root.DECIMAL
                && a instanceof DecimalLogicalTypeAnnotation
                && ((DecimalLogicalTypeAnnotation) a).getScale() != type.scale()) {
            throw reject(column, "has another scale than " + type.typeName());
        }
        if (type.root() == DataType.Root.TIMESTAMP
                && a instanceof TimestampLogicalTypeAnnotation
                && ((TimestampLogicalTypeAnnotation) a).getUnit()
                        != (type.precision() == 3 ? TimeUnit.MILLIS : TimeUnit.MICROS)) {
            throw reject(column, "has another unit than " + type.typeName());
        }
    }

    private static boolean holds(PrimitiveTypeName physical, DataType.Root root) {
        switch (root) {
            case BOOLEAN:
                return physical == PrimitiveTypeName.BOOLEAN;
            case INT:
            case DATE:
                return physical == PrimitiveTypeName.INT32;
            case BIGINT:
            case TIMESTAMP:
                return physical == PrimitiveTypeName.INT64;
            case FLOAT:
                return physical == PrimitiveTypeName.FLOAT;
            case DOUBLE:
                return physical == PrimitiveTypeName.DOUBLE;
            case STRING:
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
        return new ParquetDecodingException("column " + p.getName() + " (" + p + ") " + why);
    }
}
