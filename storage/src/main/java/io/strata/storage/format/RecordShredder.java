package io.strata.storage.format;

import io.strata.storage.data.KeyValue;
import io.strata.storage.schema.DataField;
import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows of a schema with nested columns (ARRAY, MAP, ROW) through parquet-mr's own record
 * shredding ({@code MessageColumnIO.getRecordWriter}), which computes the repetition and
 * definition levels of every leaf column, in the layout of {@link ParquetSchemas#type}: an empty
 * ARRAY or MAP is its group without elements, a null one its group absent, a null element an
 * element group without its value. Each row ends the record ({@code endMessage} ends it in the
 * column store).
 *
 * <p>REQUIRES: every value was accepted by its type ({@link DataType#problemWith}): a null where a
 * type is NOT NULL would be written as a definition level the column cannot have.
 */
final class RecordShredder {
    private final MessageType schema;
    private final DataField[] fields;
    private final boolean systemColumns;
    private RecordConsumer consumer;

    RecordShredder(MessageType schema, List<DataField> fields, boolean systemColumns) {
        this.schema = schema;
        this.fields = fields.toArray(new DataField[0]);
        this.systemColumns = systemColumns;
    }

    /** Writes the next records into {@code store} (a new one per row group). */
    void writeTo(ColumnWriteStore store) {
        consumer = new ColumnIOFactory(false).getColumnIO(schema).getRecordWriter(store);
    }

    /**
     * Writes the nulls the shredding still holds back: parquet-mr defers the nulls of a group's
     * leaves until a later value or this call, so it must come before the row group's columns are
     * flushed.
     */
    void flush() {
        consumer.flush();
    }

    void write(KeyValue kv) {
        RecordConsumer rc = consumer;
        rc.startMessage();
        int index = 0;
        if (systemColumns) {
            rc.startField(ParquetSchemas.SEQUENCE_COLUMN, 0);
            rc.addLong(kv.sequence());
            rc.endField(ParquetSchemas.SEQUENCE_COLUMN, 0);
            rc.startField(ParquetSchemas.ROW_KIND_COLUMN, 1);
            rc.addInteger(kv.kind().toByteValue());
            rc.endField(ParquetSchemas.ROW_KIND_COLUMN, 1);
            byte[] orderings = kv.orderings();
            if (orderings != null) {
                rc.startField(ParquetSchemas.ORDERINGS_COLUMN, 2);
                rc.addBinary(Binary.fromConstantByteArray(orderings));
                rc.endField(ParquetSchemas.ORDERINGS_COLUMN, 2);
            }
            index = ParquetSchemas.SYSTEM_COLUMNS;
        }
        Object[] row = kv.row();
        for (int i = 0; i < fields.length; i++, index++) {
            field(rc, fields[i].name(), index, fields[i].type(), row[i]);
        }
        rc.endMessage();
    }

    /** A field of the current group; nothing for null (the field is absent). */
    private static void field(RecordConsumer rc, String name, int index, DataType type, Object v) {
        if (v == null) {
            return;
        }
        rc.startField(name, index);
        value(rc, type, v);
        rc.endField(name, index);
    }

    private static void value(RecordConsumer rc, DataType type, Object v) {
        switch (type.root()) {
            case BOOLEAN:
                rc.addBoolean((Boolean) v);
                break;
            case TINYINT:
            case SMALLINT:
            case INT:
            case DATE:
            case TIME:
                rc.addInteger(((Number) v).intValue());
                break;
            case BIGINT:
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                rc.addLong((Long) v);
                break;
            case FLOAT:
                rc.addFloat((Float) v);
                break;
            case DOUBLE:
                rc.addDouble((Double) v);
                break;
            case STRING:
            case CHAR:
            case VARCHAR:
            case BYTES:
                rc.addBinary(ParquetRowWriter.binary(v));
                break;
            case DECIMAL:
                rc.addBinary(Binary.fromConstantByteArray(
                        ((BigDecimal) v).unscaledValue().toByteArray()));
                break;
            case ARRAY:
                array(rc, type.elementType(), (List<?>) v);
                break;
            case MAP:
                map(rc, type, (Map<?, ?>) v);
                break;
            case ROW: {
                Object[] values = (Object[]) v;
                List<DataType.Field> fs = type.fields();
                rc.startGroup();
                for (int j = 0; j < values.length; j++) {
                    field(rc, fs.get(j).name(), j, fs.get(j).type(), values[j]);
                }
                rc.endGroup();
                break;
            }
            default:
                throw new IllegalStateException("unsupported " + type);
        }
    }

    private static void array(RecordConsumer rc, DataType element, List<?> list) {
        rc.startGroup();
        if (!list.isEmpty()) {
            rc.startField("list", 0);
            for (Object e : list) {
                rc.startGroup();
                field(rc, "element", 0, element, e);
                rc.endGroup();
            }
            rc.endField("list", 0);
        }
        rc.endGroup();
    }

    private static void map(RecordConsumer rc, DataType type, Map<?, ?> map) {
        rc.startGroup();
        if (!map.isEmpty()) {
            rc.startField("key_value", 0);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                rc.startGroup();
                field(rc, "key", 0, type.keyType(), e.getKey());
                field(rc, "value", 1, type.valueType(), e.getValue());
                rc.endGroup();
            }
            rc.endField("key_value", 0);
        }
        rc.endGroup();
    }
}
