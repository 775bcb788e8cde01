package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;

/**
 * parquet-mr record assembly into Strata's Java values ({@link DataType}) for the nested columns
 * of a data file: a converter tree per column, built from the column's type, over the layout
 * {@link ReadableColumns#checkNested} accepted (three-level LIST, MAP's repeated key_value group,
 * a ROW's fields in order). A group that is absent (a null ARRAY, MAP or ROW, a null element) never
 * starts, so its value stays null; an ARRAY or MAP that starts without elements is empty. Every
 * value is a copy: none refers to a page buffer.
 */
final class NestedConverters {
    private NestedConverters() {}

    /** Materializes records of the given columns as {@code Object[]}, one value per column. */
    static RecordMaterializer<Object[]> materializer(List<DataType> columns) {
        return new RecordMaterializer<>() {
            private final Root root = new Root(columns);

            @Override
            public Object[] getCurrentRecord() {
                return root.record;
            }

            @Override
            public GroupConverter getRootConverter() {
                return root;
            }
        };
    }

    private static final class Root extends GroupConverter {
        private final Converter[] children;
        Object[] record;

        Root(List<DataType> columns) {
            children = new Converter[columns.size()];
            for (int i = 0; i < children.length; i++) {
                int at = i;
                children[i] = of(columns.get(i), v -> record[at] = v);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            record = new Object[children.length];
        }

        @Override
        public void end() {}
    }

    /** The converter of a value of {@code type}, handing each value it assembles to {@code sink}. */
    static Converter of(DataType type, Consumer<Object> sink) {
        switch (type.root()) {
            case ARRAY:
                return new ListConverter(type.elementType(), sink);
            case MAP:
                return new MapConverter(type, sink);
            case ROW:
                return new RowConverter(type, sink);
            default:
                return new Scalar(type, sink);
        }
    }

    /** {@code <list> (LIST) { repeated group list { <element> } }}. */
    private static final class ListConverter extends GroupConverter {
        private final Consumer<Object> sink;
        private final GroupConverter repeated;
        private List<Object> list;
        private Object element;

        ListConverter(DataType elementType, Consumer<Object> sink) {
            this.sink = sink;
            Converter child = of(elementType, v -> element = v);
            this.repeated = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return child;
                }

                @Override
                public void start() {
                    element = null;
                }

                @Override
                public void end() {
                    list.add(element);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            list = new ArrayList<>();
        }

        @Override
        public void end() {
            sink.accept(list);
        }
    }

    /** {@code <map> (MAP) { repeated group key_value { required key; value } }}. */
    private static final class MapConverter extends GroupConverter {
        private final Consumer<Object> sink;
        private final GroupConverter repeated;
        private Map<Object, Object> map;
        private Object key;
        private Object value;

        MapConverter(DataType type, Consumer<Object> sink) {
            this.sink = sink;
            Converter keys = of(type.keyType(), v -> key = v);
            Converter values = of(type.valueType(), v -> value = v);
            this.repeated = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return fieldIndex == 0 ? keys : values;
                }

                @Override
                public void start() {
                    key = null;
                    value = null;
                }

                @Override
                public void end() {
                    if (key == null) {
                        throw new ParquetDecodingException("a MAP entry has a null key");
                    }
                    map.put(key, value);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            map = new LinkedHashMap<>();
        }

        @Override
        public void end() {
            sink.accept(map);
        }
    }

    private static final class RowConverter extends GroupConverter {
        private final Consumer<Object> sink;
        private final Converter[] children;
        private Object[] values;

        RowConverter(DataType type, Consumer<Object> sink) {
            this.sink = sink;
            List<DataType.Field> fields = type.fields();
            children = new Converter[fields.size()];
            for (int i = 0; i < children.length; i++) {
                int at = i;
                children[i] = of(fields.get(i).type(), v -> values[at] = v);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return children[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[children.length];
        }

        @Override
        public void end() {
            sink.accept(values);
        }
    }

    /** A leaf: the physical value as the Java value of its type (the same conversions as {@link ColumnChunkDecoder}). */
    private static final class Scalar extends PrimitiveConverter {
        private final DataType type;
        private final Consumer<Object> sink;

        Scalar(DataType type, Consumer<Object> sink) {
            this.type = type;
            this.sink = sink;
        }

        @Override
        public void addBoolean(boolean value) {
            sink.accept(value);
        }

        @Override
        public void addInt(int value) {
            switch (type.root()) {
                case TINYINT:
                    if (value != (byte) value) {
                        throw outside(value);
                    }
                    sink.accept((byte) value);
                    break;
                case SMALLINT:
                    if (value != (short) value) {
                        throw outside(value);
                    }
                    sink.accept((short) value);
                    break;
                case DECIMAL:
                    sink.accept(BigDecimal.valueOf(value, type.scale()));
                    break;
                default:
                    sink.accept(value);
            }
        }

        @Override
        public void addLong(long value) {
            sink.accept(type.root() == DataType.Root.DECIMAL ? BigDecimal.valueOf(value, type.scale()) : value);
        }

        @Override
        public void addFloat(float value) {
            sink.accept(value);
        }

        @Override
        public void addDouble(double value) {
            sink.accept(value);
        }

        @Override
        public void addBinary(Binary value) {
            switch (type.root()) {
                case STRING:
                case CHAR:
                case VARCHAR:
                    sink.accept(value.toStringUsingUTF8());
                    break;
                case DECIMAL:
                    sink.accept(new BigDecimal(new BigInteger(value.getBytes()), type.scale()));
                    break;
                default:
                    // getBytes of a value read from a page copies it (never a view of the page buffer)
                    sink.accept(value.getBytes());
            }
        }

        private ParquetDecodingException outside(int value) {
            return new ParquetDecodingException("value " + value + " is outside " + type.typeName());
        }
    }
}
