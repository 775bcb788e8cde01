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

    ColumnPlan(MessageType requested, TableSchema readSchema, boolean primaryKey, boolean rawStrings) {
        Map<Integer, Integer> positionById = new HashMap<>();
        for (int i = 0; i < readSchema.fields().size(); i++) {
            positionById.put(readSchema.fields().get(i).id(), i);
        }
        List<Type> fields = requested.getFields();
        for (int i = 0; i < fields.size(); i++) {
            Type field = fields.get(i);
            if (primaryKey && i < ParquetSchemas.SYSTEM_COLUMNS) {
                DataType type = i == 0 ? DataType.bigint() : DataType.intType();
                ColumnDescriptor d = requested.getColumnDescription(new String[] {field.getName()});
                ReadableColumns.check(d, type, true);
                addFlat(d, -1, i == 0 ? ColumnChunkDecoder.Kind.LONG : ColumnChunkDecoder.Kind.INT, 0);
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
