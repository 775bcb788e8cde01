package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Reads Parquet files with parquet-mr's own generic reader (no Strata code), and turns its values
 * into the Java values Strata's rows hold ({@link DataType}), by the Parquet specification of
 * each physical type and annotation.
 */
final class ParquetMr {
    private ParquetMr() {}

    /**
     * A configuration whose resources are loaded: readers copy the one they are given, and a copy
     * of one not yet loaded parses Hadoop's default resources again, a good part of a small file's
     * read.
     */
    static Configuration conf() {
        Configuration conf = new Configuration();
        conf.size();
        return conf;
    }

    static List<Group> read(Path file, Configuration conf) throws IOException {
        List<Group> out = new ArrayList<>();
        try (ParquetReader<Group> r = new GroupReader(HadoopInputFile.fromPath(file, conf), conf).build()) {
            for (Group g = r.read(); g != null; g = r.read()) {
                out.add(g);
            }
        }
        return out;
    }

    /**
     * {@code ParquetReader.builder(new GroupReadSupport(), path)}, given the configuration at once:
     * that builder first makes a new one, which parses Hadoop's default resources again.
     */
    private static final class GroupReader extends ParquetReader.Builder<Group> {
        GroupReader(InputFile file, Configuration conf) {
            super(file, new HadoopParquetConfiguration(conf));
        }

        @Override
        protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
        }
    }

    static ParquetMetadata footer(Path file, Configuration conf) throws IOException {
        try (ParquetFileReader r = ParquetFileReader.open(
                HadoopInputFile.fromPath(file, conf),
                HadoopReadOptions.builder(conf).build())) {
            return r.getFooter();
        }
    }

    /**
     * Field {@code name} of {@code g} as a value of {@code type}, which may be nested: ARRAY, MAP
     * and ROW by the standard LIST, MAP and group layouts of the Parquet specification; null when
     * absent.
     */
    static Object value(Group g, String name, DataType type) {
        if (g.getFieldRepetitionCount(name) == 0) {
            return null;
        }
        if (type.isNested()) {
            Group group = g.getGroup(name, 0);
            switch (type.root()) {
                case ARRAY: {
                    List<Object> list = new ArrayList<>();
                    for (int i = 0; i < group.getFieldRepetitionCount("list"); i++) {
                        list.add(value(group.getGroup("list", i), "element", type.elementType()));
                    }
                    return list;
                }
                case MAP: {
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (int i = 0; i < group.getFieldRepetitionCount("key_value"); i++) {
                        Group kv = group.getGroup("key_value", i);
                        map.put(value(kv, "key", type.keyType()), value(kv, "value", type.valueType()));
                    }
                    return map;
                }
                default: {
                    List<DataType.Field> fields = type.fields();
                    Object[] row = new Object[fields.size()];
                    for (int i = 0; i < row.length; i++) {
                        row[i] =
                                value(group, fields.get(i).name(), fields.get(i).type());
                    }
                    return row;
                }
            }
        }
        PrimitiveType p = g.getType().getType(name).asPrimitiveType();
        switch (p.getPrimitiveTypeName()) {
            case BOOLEAN:
                return g.getBoolean(name, 0);
            case INT32:
                int i = g.getInteger(name, 0);
                switch (type.root()) {
                    case DECIMAL:
                        return BigDecimal.valueOf(i, type.scale());
                    case TINYINT:
                        return (byte) i;
                    case SMALLINT:
                        return (short) i;
                    default:
                        return i;
                }
            case INT64:
                long l = g.getLong(name, 0);
                return type.root() == DataType.Root.DECIMAL ? BigDecimal.valueOf(l, type.scale()) : (Object) l;
            case FLOAT:
                return g.getFloat(name, 0);
            case DOUBLE:
                return g.getDouble(name, 0);
            case BINARY:
            case FIXED_LEN_BYTE_ARRAY:
                byte[] bytes = g.getBinary(name, 0).getBytes();
                switch (type.root()) {
                    case STRING:
                    case CHAR:
                    case VARCHAR:
                        return new String(bytes, StandardCharsets.UTF_8);
                    case DECIMAL:
                        return new BigDecimal(new BigInteger(bytes), type.scale());
                    default:
                        return bytes;
                }
            default:
                throw new IllegalArgumentException("no Strata value for " + p);
        }
    }
}
