package io.strata.storage.format;

import io.strata.storage.schema.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the nested columns (ARRAY, MAP, ROW) of one data file with parquet-mr's record assembly
 * ({@code MessageColumnIO.getRecordReader}) into {@link NestedConverters}, a record per row, while
 * {@link ColumnChunkDecoder}s read the file's flat columns from the same row group: each column
 * chunk has its own page reader, so both read side by side, one row at a time.
 *
 * <p>Pages come through {@link PageDecompression}'s protocol: a data page's pooled buffer is given
 * back when its column reads its next page (parquet-mr's column reader reads the next page only
 * once it has handed every value of the page to the converters, which copy them), dictionary
 * pages' buffers when the row group ends (parquet-mr's binary dictionaries are views of the page).
 */
final class NestedColumnReader {
    private final MessageColumnIO io;
    private final RecordMaterializer<Object[]> materializer;
    private final PageDecompression decompression;
    private final int[] positions;
    private final List<ByteBuffer> dictionaryBuffers = new ArrayList<>();
    private final List<PooledPages> readers = new ArrayList<>();
    private RecordReader<Object[]> records;

    /**
     * @param columns   the nested fields of the file to read (as the file has them)
     * @param types     their types in the read schema, each accepted by {@link ReadableColumns#checkNested}
     * @param positions their positions in the row
     */
    NestedColumnReader(
            MessageType columns,
            List<DataType> types,
            int[] positions,
            String createdBy,
            PageDecompression decompression) {
        this.io = new ColumnIOFactory(createdBy, false).getColumnIO(columns);
        this.materializer = NestedConverters.materializer(types);
        this.decompression = decompression;
        this.positions = positions;
    }

    /** Starts reading {@code rowGroup}; {@link #endRowGroup()} must come before the next. */
    void startRowGroup(PageReadStore rowGroup) {
        records = io.getRecordReader(
                new PageReadStore() {
                    @Override
                    public PageReader getPageReader(ColumnDescriptor descriptor) {
                        PooledPages p = new PooledPages(rowGroup.getPageReader(descriptor));
                        readers.add(p);
                        return p;
                    }

                    @Override
                    public long getRowCount() {
                        return rowGroup.getRowCount();
                    }
                },
                materializer,
                FilterCompat.NOOP);
    }

    /** Assembles the next row's nested values into {@code row}. */
    void readInto(Object[] row) {
        Object[] values = records.read();
        for (int i = 0; i < positions.length; i++) {
            row[positions[i]] = values[i];
        }
    }

    /** Hands back every buffer of the row group's pages; the values read stay valid (they are copies). */
    void endRowGroup() {
        records = null;
        for (PooledPages p : readers) {
            p.release();
        }
        readers.clear();
        for (ByteBuffer b : dictionaryBuffers) {
            decompression.giveBack(b);
        }
        dictionaryBuffers.clear();
    }

    /** One column's pages, with the pooled buffer of each page given back when the next one is read. */
    private final class PooledPages implements PageReader {
        private final PageReader pages;
        private ByteBuffer current;

        PooledPages(PageReader pages) {
            this.pages = pages;
        }

        @Override
        public DictionaryPage readDictionaryPage() {
            DictionaryPage page = pages.readDictionaryPage();
            ByteBuffer b = decompression.takePage();
            if (b != null) {
                dictionaryBuffers.add(b);
            }
            return page;
        }

        @Override
        public long getTotalValueCount() {
            return pages.getTotalValueCount();
        }

        @Override
        public DataPage readPage() {
            release();
            DataPage page = pages.readPage();
            current = decompression.takePage();
            return page;
        }

        void release() {
            decompression.giveBack(current);
            current = null;
        }
    }
}
