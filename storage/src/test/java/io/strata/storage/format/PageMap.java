package io.strata.storage.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Where the pages of a Parquet file are, read with parquet-mr's footer and page-header parser
 * only: for tests that damage one page, one page header or the footer.
 */
public final class PageMap {
    /** One page: its header's and its body's byte offsets in the file. */
    public record Page(
            String column,
            boolean dictionary,
            int index,
            long headerStart,
            long bodyStart,
            int bodyLength,
            boolean hasCrc) {}

    private PageMap() {}

    /** Every page of every column chunk of the local file {@code file}, in file order per chunk. */
    public static List<Page> pages(java.nio.file.Path file) throws IOException {
        Configuration conf = ParquetMr.conf();
        ParquetMetadata footer = ParquetMr.footer(new Path(file.toUri()), conf);
        byte[] bytes = Files.readAllBytes(file);
        List<Page> out = new ArrayList<>();
        for (BlockMetaData block : footer.getBlocks()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                long start = chunk.getStartingPos();
                ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) start, (int) chunk.getTotalSize());
                long end = start + chunk.getTotalSize();
                long values = 0;
                int index = 0;
                while (values < chunk.getValueCount()) {
                    long headerStart = end - in.available();
                    PageHeader h = Util.readPageHeader(in);
                    long bodyStart = end - in.available();
                    in.skip(h.getCompressed_page_size());
                    boolean dictionary = h.isSetDictionary_page_header();
                    out.add(new Page(
                            chunk.getPath().toDotString(),
                            dictionary,
                            dictionary ? -1 : index,
                            headerStart,
                            bodyStart,
                            h.getCompressed_page_size(),
                            h.isSetCrc()));
                    if (!dictionary) {
                        values += h.isSetData_page_header()
                                ? h.getData_page_header().getNum_values()
                                : h.getData_page_header_v2().getNum_values();
                        index++;
                    }
                }
            }
        }
        return out;
    }

    /** The first data page (index {@code index}) of {@code column}. */
    public static Page dataPage(java.nio.file.Path file, String column, int index) throws IOException {
        return pages(file).stream()
                .filter(p -> p.column().equals(column) && !p.dictionary() && p.index() == index)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no page " + index + " of column " + column + " in " + file));
    }

    /** The dictionary page of {@code column}. */
    public static Page dictionaryPage(java.nio.file.Path file, String column) throws IOException {
        return pages(file).stream()
                .filter(p -> p.column().equals(column) && p.dictionary())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no dictionary page of column " + column + " in " + file));
    }

    /** Byte offsets [start, end) of the footer (the thrift FileMetaData, without its length and magic). */
    public static long[] footer(java.nio.file.Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int n = bytes.length;
        int length = (bytes[n - 8] & 0xff)
                | (bytes[n - 7] & 0xff) << 8
                | (bytes[n - 6] & 0xff) << 16
                | (bytes[n - 5] & 0xff) << 24;
        return new long[] {n - 8 - length, n - 8};
    }

    /** Flips every bit of the byte at {@code offset}. */
    public static void flip(java.nio.file.Path file, long offset) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) offset] ^= (byte) 0xff;
        Files.write(file, bytes);
    }
}
