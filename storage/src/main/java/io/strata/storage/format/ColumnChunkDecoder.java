package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Decodes one column chunk of a flat (non-repeated) Parquet column into values as the row layout
 * holds them (boxed numbers, String or byte[], BigDecimal; null for null), which the row reader
 * takes one by one. Definition levels are decoded a page at a time. PLAIN values are decoded
 * from the page as they are taken, so the objects of a row are young when the row is dropped
 * (a merge of many files holds a page of each column of each file); other encodings are decoded
 * a page at a time into an array. A dictionary is decoded once per chunk, and values of
 * dictionary-encoded pages are the dictionary's own (shared, immutable) objects, so such pages
 * allocate nothing per value.
 *
 * <p>Pages are v1 or v2 (levels and values in separate sections, the values section compressed or
 * not). PLAIN and dictionary-encoded values, and definition levels, are decoded here; values of
 * the other encodings {@link ReadableColumns#readable} accepts go through parquet-column's own
 * readers, a page at a time; any other encoding fails the read naming the column and the encoding.
 * Each page is decoded on its own: a DELTA_BYTE_ARRAY page whose first value shares a prefix with
 * the previous page's last (written so only by a writer bug that Parquet 1.8 fixed) fails.
 *
 * <p>The sequence-number and row-kind columns are read as primitives ({@link #nextLong()},
 * {@link #nextInt()}), never boxed. Memory: one page (decompressed), plus its decoded levels.
 * Zstandard pages are decompressed into pooled buffers ({@link PageDecompression}):
 * the decoder holds its dictionary page's buffer until {@link #close()} and a data page's until it
 * reads the next page, and every value it returns is a copy, never a view of those buffers.
 */
final class ColumnChunkDecoder {
    /** How values are represented in rows. */
    enum Kind {
        BOOLEAN,
        /** TINYINT: INT32 values narrowed to {@link Byte}. */
        BYTE,
        /** SMALLINT: INT32 values narrowed to {@link Short}. */
        SHORT,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        STRING,
        BYTES,
        DECIMAL
    }

    /** How a column's physical values become row values: its kind and, for DECIMAL and binaries, its physical type. */
    private enum Form {
        BOOLEAN,
        BYTE,
        SHORT,
        INT,
        LONG,
        FLOAT,
        DOUBLE,
        INT_DECIMAL,
        LONG_DECIMAL,
        /** Length-prefixed (BINARY) bytes, made a row value by {@link #fromBytes}. */
        BINARY,
        /** FIXED_LEN_BYTE_ARRAY bytes, made a row value by {@link #fromBytes}. */
        FIXED;

        static Form of(Kind kind, PrimitiveTypeName physical) {
            switch (kind) {
                case BOOLEAN:
                    return BOOLEAN;
                case BYTE:
                    return BYTE;
                case SHORT:
                    return SHORT;
                case INT:
                    return INT;
                case LONG:
                    return LONG;
                case FLOAT:
                    return FLOAT;
                case DOUBLE:
                    return DOUBLE;
                default:
                    switch (physical) {
                        case INT32:
                            return kind == Kind.DECIMAL ? INT_DECIMAL : INT;
                        case INT64:
                            return kind == Kind.DECIMAL ? LONG_DECIMAL : LONG;
                        case FIXED_LEN_BYTE_ARRAY:
                            return FIXED;
                        default:
                            return BINARY;
                    }
            }
        }
    }

    private final ColumnDescriptor descriptor;
    private final PageReader pages;
    private final PageDecompression decompression;
    /** Pool buffers holding the dictionary page and the current data page (null: not pooled). */
    private ByteBuffer dictionaryBuffer;

    private ByteBuffer pageBuffer;
    private final Kind kind;
    private final Form form;
    private final int scale;
    /** The byte length of a FIXED_LEN_BYTE_ARRAY value (else unused). */
    private final int fixedLength;

    private final int maxDefinition;
    private final boolean primitive;
    private Object[] dictionary;
    private Dictionary parquetDictionary;

    /** The dictionary of a primitive INT32 column, decoded on first use. */
    private int[] intDictionary;
    /** The current page when its values are PLAIN objects decoded on demand (else null: {@link #values}). */
    private ByteBuffer plainPage;
    /** The definition levels of {@link #plainPage} (null: no nulls possible). */
    private int[] plainDefs;

    private Object[] values = new Object[0];
    private int[] defLevels = new int[0];
    private int[] ids = new int[0];
    private long[] longs = new long[0];
    private int[] ints = new int[0];
    private int pos;
    private int count;

    /**
     * REQUIRES: {@code descriptor} passed {@link ReadableColumns#check} for the type {@code kind}
     * was derived from.
     *
     * @param primitive read through {@link #nextLong()}/{@link #nextInt()} only (a required
     *                  INT64/INT32 column)
     */
    ColumnChunkDecoder(
            ColumnDescriptor descriptor,
            PageReader pages,
            PageDecompression decompression,
            Kind kind,
            int scale,
            boolean primitive) {
        this.descriptor = descriptor;
        this.pages = pages;
        this.decompression = decompression;
        this.kind = kind;
        this.scale = scale;
        this.maxDefinition = descriptor.getMaxDefinitionLevel();
        this.primitive = primitive;
        this.form = Form.of(kind, descriptor.getPrimitiveType().getPrimitiveTypeName());
        this.fixedLength = descriptor.getPrimitiveType().getTypeLength();
        DictionaryPage page = pages.readDictionaryPage();
        dictionaryBuffer = decompression.takePage();
        if (page != null) {
            // on failure the reader's scope takes the dictionary buffer back when the reader closes
            try {
                parquetDictionary = page.getEncoding().initDictionary(descriptor, page);
            } catch (IOException | RuntimeException e) {
                throw new ParquetDecodingException(
                        "cannot read the " + page.getEncoding() + " dictionary of column " + descriptor + ": "
                                + e.getMessage(),
                        e);
            }
            if (!primitive) {
                dictionary = decodeDictionary(parquetDictionary);
            }
        }
    }

    /** Hands the pool buffers back; the decoder is not used afterwards. */
    void close() {
        plainPage = null;
        releasePageBuffer();
        decompression.giveBack(dictionaryBuffer);
        dictionaryBuffer = null;
    }

    private void releasePageBuffer() {
        decompression.giveBack(pageBuffer);
        pageBuffer = null;
    }

    static Kind kindOf(DataType type, boolean rawStrings) {
        switch (type.root()) {
            case BOOLEAN:
                return Kind.BOOLEAN;
            case TINYINT:
                return Kind.BYTE;
            case SMALLINT:
                return Kind.SHORT;
            case INT:
            case DATE:
            case TIME:
                return Kind.INT;
            case BIGINT:
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                return Kind.LONG;
            case FLOAT:
                return Kind.FLOAT;
            case DOUBLE:
                return Kind.DOUBLE;
            case STRING:
                return rawStrings ? Kind.BYTES : Kind.STRING;
            case CHAR:
            case VARCHAR:
                // never raw: raw comparators and writers treat only STRING values as bytes
                return Kind.STRING;
            case BYTES:
                return Kind.BYTES;
            case DECIMAL:
                return Kind.DECIMAL;
            default:
                throw new IllegalArgumentException("unsupported " + type);
        }
    }

    /** The next value of the column (null for null). */
    Object next() {
        if (pos == count) {
            readPage();
        }
        if (plainPage == null) {
            return values[pos++];
        }
        int i = pos++;
        int[] defs = plainDefs;
        return defs != null && defs[i] != maxDefinition ? null : decodePlain(plainPage);
    }

    /** The next non-null PLAIN value of {@code buf} (little endian), boxed or copied as the row holds it. */
    private Object decodePlain(ByteBuffer buf) {
        switch (form) {
            case LONG:
                return buf.getLong();
            case INT:
                return buf.getInt();
            case BYTE:
                return toByte(buf.getInt());
            case SHORT:
                return toShort(buf.getInt());
            case DOUBLE:
                return buf.getDouble();
            case FLOAT:
                return buf.getFloat();
            case INT_DECIMAL:
                return BigDecimal.valueOf(buf.getInt(), scale);
            case LONG_DECIMAL:
                return BigDecimal.valueOf(buf.getLong(), scale);
            case FIXED:
                return fromBytes(copy(buf, fixedLength));
            default:
                return fromBytes(copy(buf, buf.getInt()));
        }
    }

    /** A TINYINT value; an INT32 outside its range (a file another writer wrote unannotated) fails the read. */
    private Byte toByte(int v) {
        if (v != (byte) v) {
            throw new ParquetDecodingException("column " + descriptor + ": value " + v + " is outside TINYINT");
        }
        return (byte) v;
    }

    private Short toShort(int v) {
        if (v != (short) v) {
            throw new ParquetDecodingException("column " + descriptor + ": value " + v + " is outside SMALLINT");
        }
        return (short) v;
    }

    /** The next {@code length} bytes of {@code buf}, copied. */
    private byte[] copy(ByteBuffer buf, int length) {
        if (length < 0 || length > buf.remaining()) {
            throw new ParquetDecodingException(
                    "column " + descriptor + ": value length " + length + " exceeds the page");
        }
        byte[] bytes = new byte[length];
        buf.get(bytes);
        return bytes;
    }

    /** The next value of a primitive INT64 column. */
    long nextLong() {
        if (pos == count) {
            readPage();
        }
        return longs[pos++];
    }

    /** The next value of a primitive INT32 column. */
    int nextInt() {
        if (pos == count) {
            readPage();
        }
        return ints[pos++];
    }

    private void readPage() {
        plainPage = null;
        plainDefs = null;
        releasePageBuffer();
        DataPage page = pages.readPage();
        pageBuffer = decompression.takePage();
        if (page == null) {
            throw new ParquetDecodingException(
                    "column " + descriptor + " has fewer values than the row group has rows");
        }
        int n = page.getValueCount();
        try {
            page.accept(new DataPage.Visitor<Void>() {
                @Override
                public Void visit(DataPageV1 p) {
                    try {
                        readV1(p, n);
                        return null;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public Void visit(DataPageV2 p) {
                    try {
                        readV2(p, n);
                        return null;
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
        } catch (UncheckedIOException e) {
            throw new ParquetDecodingException(
                    "cannot decode a page of column " + descriptor + ": "
                            + e.getCause().getMessage(),
                    e);
        } catch (RuntimeException e) {
            if (e instanceof ParquetDecodingException) {
                throw e;
            }
            throw new ParquetDecodingException("cannot decode a page of column " + descriptor + ": " + e, e);
        }
        pos = 0;
        count = n;
    }

    /**
     * A V1 page: [repetition levels][definition levels][values] in one buffer. Levels in RLE
     * (4-byte length, then the hybrid encoding) and PLAIN or dictionary values are decoded here
     * in bulk; anything else goes through Parquet's readers.
     */
    private void readV1(DataPageV1 p, int n) throws IOException {
        Encoding encoding = p.getValueEncoding();
        if ((maxDefinition == 0 || p.getDlEncoding() == Encoding.RLE) && supportsFast(encoding)) {
            ByteBuffer buf = p.getBytes().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
            int[] defs = null;
            if (maxDefinition > 0) {
                int length = buf.getInt();
                ByteBuffer levels = buf.slice();
                levels.limit(length);
                defs = levels(n);
                HybridDecoder.decode(levels, BytesUtils.getWidthFromMaxInt(maxDefinition), defs, n);
                buf.position(buf.position() + length);
            }
            decodeFast(buf, n, defs, encoding);
            return;
        }
        ValuesReader data = valuesReader(encoding);
        ByteBufferInputStream in = p.getBytes().toInputStream();
        ValuesReader rl = p.getRlEncoding().getValuesReader(descriptor, ValuesType.REPETITION_LEVEL);
        rl.initFromPage(n, in);
        ValuesReader dl = p.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
        dl.initFromPage(n, in);
        int[] defs = null;
        if (maxDefinition > 0) {
            defs = levels(n);
            for (int i = 0; i < n; i++) {
                defs[i] = dl.readInteger();
            }
        }
        data.initFromPage(n, in);
        decodeGeneric(n, defs, data, encoding);
    }

    /**
     * A V2 page: definition levels (hybrid encoding, no length prefix; never compressed) and values
     * in separate sections. Parquet's page reader has already decompressed the values section if
     * the page says it is compressed.
     */
    private void readV2(DataPageV2 p, int n) throws IOException {
        Encoding encoding = p.getDataEncoding();
        int[] defs = null;
        if (maxDefinition > 0) {
            defs = levels(n);
            ByteBuffer levels = p.getDefinitionLevels().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN);
            HybridDecoder.decode(levels, BytesUtils.getWidthFromMaxInt(maxDefinition), defs, n);
        }
        if (supportsFast(encoding)) {
            decodeFast(p.getData().toByteBuffer().slice().order(ByteOrder.LITTLE_ENDIAN), n, defs, encoding);
            return;
        }
        ValuesReader data = valuesReader(encoding);
        data.initFromPage(n, p.getData().toInputStream());
        decodeGeneric(n, defs, data, encoding);
    }

    private int[] levels(int n) {
        if (defLevels.length < n) {
            defLevels = new int[n];
        }
        return defLevels;
    }

    private boolean supportsFast(Encoding encoding) {
        return encoding == Encoding.PLAIN_DICTIONARY
                || encoding == Encoding.RLE_DICTIONARY
                || encoding == Encoding.PLAIN && form != Form.BOOLEAN;
    }

    /** PLAIN or dictionary-id values of a page from {@code buf} (little endian), nulls where {@code defs} says. */
    private void decodeFast(ByteBuffer buf, int n, int[] defs, Encoding encoding) {
        int maxDef = maxDefinition;
        if (encoding.usesDictionary()) {
            if (parquetDictionary == null) {
                throw new ParquetDecodingException(
                        "column " + descriptor + ": dictionary-encoded page without a " + "dictionary page");
            }
            int nonNull = n;
            if (defs != null) {
                nonNull = 0;
                for (int i = 0; i < n; i++) {
                    if (defs[i] == maxDef) {
                        nonNull++;
                    }
                }
            }
            int bitWidth = buf.get() & 0xff;
            if (ids.length < nonNull) {
                ids = new int[nonNull];
            }
            HybridDecoder.decode(buf, bitWidth, ids, nonNull);
            // a primitive column is required (ReadableColumns.check): an id per value
            if (primitive && kind == Kind.LONG) {
                long[] out = longs(n);
                for (int i = 0; i < n; i++) {
                    out[i] = parquetDictionary.decodeToLong(ids[i]);
                }
                return;
            }
            if (primitive) {
                int[] dict = intDictionary();
                int[] out = ints(n);
                for (int i = 0; i < n; i++) {
                    out[i] = dict[ids[i]];
                }
                return;
            }
            Object[] out = objects(n);
            Object[] dict = dictionary;
            for (int i = 0, k = 0; i < n; i++) {
                out[i] = defs != null && defs[i] != maxDef ? null : dict[ids[k++]];
            }
            return;
        }
        if (primitive) {
            if (kind == Kind.LONG) {
                long[] out = longs(n);
                for (int i = 0; i < n; i++) {
                    out[i] = buf.getLong();
                }
            } else {
                int[] out = ints(n);
                for (int i = 0; i < n; i++) {
                    out[i] = buf.getInt();
                }
            }
            return;
        }
        // PLAIN values that rows hold as objects are decoded one by one as the rows ask (next()):
        // boxing a whole page here kept a page of objects per column of every open file alive
        // across young collections, and filled a long-lived array with references to new objects
        plainPage = buf;
        plainDefs = defs;
    }

    private long[] longs(int n) {
        if (longs.length < n) {
            longs = new long[n];
        }
        return longs;
    }

    private int[] ints(int n) {
        if (ints.length < n) {
            ints = new int[n];
        }
        return ints;
    }

    private Object[] objects(int n) {
        if (values.length < n) {
            values = new Object[n];
        }
        return values;
    }

    private int[] intDictionary() {
        if (intDictionary == null) {
            int[] d = new int[parquetDictionary.getMaxId() + 1];
            for (int i = 0; i < d.length; i++) {
                d[i] = parquetDictionary.decodeToInt(i);
            }
            intDictionary = d;
        }
        return intDictionary;
    }

    /** Parquet's reader of a page of values in {@code encoding}, or the rejection of an encoding Strata does not read. */
    private ValuesReader valuesReader(Encoding encoding) {
        if (!ReadableColumns.readable(descriptor.getPrimitiveType().getPrimitiveTypeName(), encoding)) {
            throw ReadableColumns.unreadable(descriptor, encoding);
        }
        if (encoding.usesDictionary()) {
            if (parquetDictionary == null) {
                throw new ParquetDecodingException(
                        "column " + descriptor + ": dictionary-encoded page without a " + "dictionary page");
            }
            return encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, parquetDictionary);
        }
        return encoding.getValuesReader(descriptor, ValuesType.VALUES);
    }

    /** A page of values through Parquet's value reader {@code data} (a value at a time). */
    private void decodeGeneric(int n, int[] defs, ValuesReader data, Encoding encoding) {
        int maxDef = maxDefinition;
        if (primitive) {
            if (kind == Kind.LONG) {
                long[] out = longs(n);
                for (int i = 0; i < n; i++) {
                    out[i] = data.readLong();
                }
            } else {
                int[] out = ints(n);
                for (int i = 0; i < n; i++) {
                    out[i] = data.readInteger();
                }
            }
            return;
        }
        Object[] out = objects(n);
        boolean ids = encoding.usesDictionary();
        for (int i = 0; i < n; i++) {
            if (defs != null && defs[i] != maxDef) {
                out[i] = null;
            } else if (ids) {
                out[i] = dictionary[data.readValueDictionaryId()];
            } else {
                out[i] = read(data);
            }
        }
    }

    /** The next value of {@code data} as the row holds it. */
    private Object read(ValuesReader data) {
        switch (form) {
            case LONG:
                return data.readLong();
            case INT:
                return data.readInteger();
            case BYTE:
                return toByte(data.readInteger());
            case SHORT:
                return toShort(data.readInteger());
            case DOUBLE:
                return data.readDouble();
            case FLOAT:
                return data.readFloat();
            case BOOLEAN:
                return data.readBoolean();
            case INT_DECIMAL:
                return BigDecimal.valueOf(data.readInteger(), scale);
            case LONG_DECIMAL:
                return BigDecimal.valueOf(data.readLong(), scale);
            default:
                return fromBytes(data.readBytes().getBytes());
        }
    }

    private Object[] decodeDictionary(Dictionary d) {
        Object[] out = new Object[d.getMaxId() + 1];
        for (int i = 0; i < out.length; i++) {
            switch (form) {
                case LONG:
                    out[i] = d.decodeToLong(i);
                    break;
                case INT:
                    out[i] = d.decodeToInt(i);
                    break;
                case BYTE:
                    out[i] = toByte(d.decodeToInt(i));
                    break;
                case SHORT:
                    out[i] = toShort(d.decodeToInt(i));
                    break;
                case DOUBLE:
                    out[i] = d.decodeToDouble(i);
                    break;
                case FLOAT:
                    out[i] = d.decodeToFloat(i);
                    break;
                case BOOLEAN:
                    out[i] = d.decodeToBoolean(i);
                    break;
                case INT_DECIMAL:
                    out[i] = BigDecimal.valueOf(d.decodeToInt(i), scale);
                    break;
                case LONG_DECIMAL:
                    out[i] = BigDecimal.valueOf(d.decodeToLong(i), scale);
                    break;
                default:
                    out[i] = fromBytes(d.decodeToBinary(i).getBytes());
            }
        }
        return out;
    }

    /**
     * A binary value as the row holds it; {@code bytes} must be a copy the row may keep (Parquet's
     * {@code Binary.getBytes()} of a value backed by a page buffer copies it).
     */
    private Object fromBytes(byte[] bytes) {
        switch (kind) {
            case STRING:
                return new String(bytes, StandardCharsets.UTF_8);
            case DECIMAL:
                return new BigDecimal(new BigInteger(bytes), scale);
            default:
                return bytes;
        }
    }
}
