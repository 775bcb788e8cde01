package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import io.strata.storage.schema.TableSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * How the requested columns are read: flat ones (the system columns first) by {@link
 * ColumnChunkDecoder}s, nested ones by parquet-mr's record assembly; each checked against its
 * read type ({@link ReadableColumns}) and placed at its position in the row by field id.
 */
final class ColumnPlan {
    final List<ColumnDescriptor> flat = new ArrayList<>();
    final List<Integer> flatPositions = new ArrayList<>();
    final List<ColumnChunkDecoder.Kind> flatKinds = new ArrayList<>();
    final List<Integer> flatScales = new ArrayList<>();
    final List<Type> nestedColumns = new ArrayList<>();
    final List<DataType> nestedTypes = new ArrayList<>();
    final List<Integer> nestedPositions = new ArrayList<>();
    /** Whether the file has the {@code _ORDERINGS} system column (data file version 2), read third. */
    final boolean orderingsColumn;
    /** The system columns read first: 2 or 3 in a primary-key file, else 0. */
    final int systemColumns;

    ColumnPlan(MessageType requested, TableSchema readSchema, boolean primaryKey, boolean rawStrings) {
        Map<Integer, Integer> positionById = new HashMap<>();
        for (int i = 0; i < readSchema.fields().size(); i++) {
            positionById.put(readSchema.fields().get(i).id(), i);
        }
        List<Type> fields = requested.getFields();
        this.orderingsColumn = primaryKey
                && fields.size() > 2
                && fields.get(2).getId() == null
                && ParquetSchemas.ORDERINGS_COLUMN.equals(fields.get(2).getName());
        this.systemColumns = primaryKey ? (orderingsColumn ? 3 : 2) : 0;
        for (int i = 0; i < fields.size(); i++) {
            Type field = fields.get(i);
            if (i < systemColumns) {
                ColumnDescriptor d = requested.getColumnDescription(new String[] {field.getName()});
                if (i == 2) {
                    ReadableColumns.check(d, DataType.bytes(), false);
                    addFlat(d, -1, ColumnChunkDecoder.Kind.BYTES, 0);
                } else {
                    ReadableColumns.check(d, i == 0 ? DataType.bigint() : DataType.intType(), true);
                    addFlat(d, -1, i == 0 ? ColumnChunkDecoder.Kind.LONG : ColumnChunkDecoder.Kind.INT, 0);
                }
                continue;
            }
            int pos = positionById.get(field.getId().intValue());
            DataType type = readSchema.fields().get(pos).type();
            if (type.isNested()) {
                ReadableColumns.checkNested(field, type);
                nestedColumns.add(field);
                nestedTypes.add(type);
                nestedPositions.add(pos);
                continue;
            }
            if (!field.isPrimitive()) {
                throw new ParquetDecodingException(
                        "column " + field.getName() + " (" + field + ") is a group; it cannot be read as " + type);
            }
            ColumnDescriptor d = requested.getColumnDescription(new String[] {field.getName()});
            ReadableColumns.check(d, type, false);
            addFlat(
                    d,
                    pos,
                    ColumnChunkDecoder.kindOf(type, rawStrings),
                    type.root() == DataType.Root.DECIMAL ? type.scale() : 0);
        }
    }

    private void addFlat(ColumnDescriptor d, int position, ColumnChunkDecoder.Kind kind, int scale) {
        flat.add(d);
        flatPositions.add(position);
        flatKinds.add(kind);
        flatScales.add(scale);
    }
}
