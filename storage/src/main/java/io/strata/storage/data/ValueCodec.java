package io.strata.storage.data;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Self-describing binary encoding of value tuples: one tag byte per value, then its bytes.
 * Used where typed values are stored outside a data file's own columns (partition values,
 * min/max keys and column statistics in manifests, committables, spill files). Part of the
 * format: tags never change meaning.
 *
 * <pre>
 * tag 0 null | 1 boolean(1) | 2 int(4) | 3 long(8) | 4 float(4) | 5 double(8)
 *     6 decimal(scale int, unscaled length int, bytes) | 7 string(length int, UTF-8) | 8 bytes(length int, bytes)
 *     9 tinyint(1) | 10 smallint(2)
 *     11 array(count int, values) | 12 map(count int, key value pairs in iteration order) | 13 row(arity int, values)
 * </pre>
 * DATE and TIME travel as int, TIMESTAMP and TIMESTAMP_LTZ as long, CHAR and VARCHAR as string,
 * matching their Java value classes. Arrays decode as {@link ArrayList}s, maps as {@link
 * LinkedHashMap}s (the encoded order), rows as {@code Object[]}.
 */
public final class ValueCodec {
    private ValueCodec() {}

    public static void writeValue(DataOutput out, Object v) throws IOException {
        if (v == null) {
            out.writeByte(0);
        } else if (v instanceof Boolean) {
            out.writeByte(1);
            out.writeBoolean((Boolean) v);
        } else if (v instanceof Integer) {
            out.writeByte(2);
            out.writeInt((Integer) v);
        } else if (v instanceof Long) {
            out.writeByte(3);
            out.writeLong((Long) v);
        } else if (v instanceof Float) {
            out.writeByte(4);
            out.writeFloat((Float) v);
        } else if (v instanceof Double) {
            out.writeByte(5);
            out.writeDouble((Double) v);
        } else if (v instanceof BigDecimal) {
            BigDecimal d = (BigDecimal) v;
            byte[] unscaled = d.unscaledValue().toByteArray();
            out.writeByte(6);
            out.writeInt(d.scale());
            out.writeInt(unscaled.length);
            out.write(unscaled);
        } else if (v instanceof String) {
            byte[] b = ((String) v).getBytes(StandardCharsets.UTF_8);
            out.writeByte(7);
            out.writeInt(b.length);
            out.write(b);
        } else if (v instanceof byte[]) {
            byte[] b = (byte[]) v;
            out.writeByte(8);
            out.writeInt(b.length);
            out.write(b);
        } else if (v instanceof Byte) {
            out.writeByte(9);
            out.writeByte((Byte) v);
        } else if (v instanceof Short) {
            out.writeByte(10);
            out.writeShort((Short) v);
        } else if (v instanceof List) {
            List<?> list = (List<?>) v;
            out.writeByte(11);
            out.writeInt(list.size());
            for (Object e : list) {
                writeValue(out, e);
            }
        } else if (v instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) v;
            out.writeByte(12);
            out.writeInt(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                writeValue(out, e.getKey());
                writeValue(out, e.getValue());
            }
        } else if (v instanceof Object[]) {
            out.writeByte(13);
            writeTuple(out, (Object[]) v);
        } else {
            throw new IllegalArgumentException(
                    "cannot encode value of " + v.getClass().getName());
        }
    }

    public static Object readValue(DataInput in) throws IOException {
        int tag = in.readUnsignedByte();
        switch (tag) {
            case 0:
                return null;
            case 1:
                return in.readBoolean();
            case 2:
                return in.readInt();
            case 3:
                return in.readLong();
            case 4:
                return in.readFloat();
            case 5:
                return in.readDouble();
            case 6: {
                int scale = in.readInt();
                byte[] b = new byte[checkedLength(in.readInt())];
                in.readFully(b);
                return new BigDecimal(new BigInteger(b), scale);
            }
            case 7: {
                byte[] b = new byte[checkedLength(in.readInt())];
                in.readFully(b);
                return new String(b, StandardCharsets.UTF_8);
            }
            case 8: {
                byte[] b = new byte[checkedLength(in.readInt())];
                in.readFully(b);
                return b;
            }
            case 9:
                return in.readByte();
            case 10:
                return in.readShort();
            case 11: {
                int n = checkedCount(in.readInt());
                List<Object> list = new ArrayList<>(Math.min(n, 1024));
                for (int i = 0; i < n; i++) {
                    list.add(readValue(in));
                }
                return list;
            }
            case 12: {
                int n = checkedCount(in.readInt());
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    Object key = readValue(in);
                    map.put(key, readValue(in));
                }
                return map;
            }
            case 13:
                return readTuple(in);
            default:
                throw new IOException("corrupt value encoding: unknown tag " + tag);
        }
    }

    private static int checkedLength(int n) throws IOException {
        if (n < 0 || n > (1 << 30)) {
            throw new IOException("corrupt value encoding: length " + n);
        }
        return n;
    }

    private static int checkedCount(int n) throws IOException {
        if (n < 0 || n > (1 << 30)) {
            throw new IOException("corrupt value encoding: element count " + n);
        }
        return n;
    }

    public static void writeTuple(DataOutput out, Object[] values) throws IOException {
        out.writeInt(values.length);
        for (Object v : values) {
            writeValue(out, v);
        }
    }

    public static Object[] readTuple(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > 100_000) {
            throw new IOException("corrupt tuple encoding: arity " + n);
        }
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
            out[i] = readValue(in);
        }
        return out;
    }

    public static byte[] encodeTuple(Object[] values) {
        try {
            ByteArrayOutputStream bos = new ByteArrayOutputStream(16 + values.length * 8);
            writeTuple(new DataOutputStream(bos), values);
            return bos.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Object[] decodeTuple(byte[] bytes) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        Object[] t = readTuple(in);
        if (in.available() != 0) {
            throw new IOException("corrupt tuple encoding: " + in.available() + " trailing bytes");
        }
        return t;
    }
}
