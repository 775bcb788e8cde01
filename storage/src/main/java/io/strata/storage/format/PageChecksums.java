package io.strata.storage.format;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Finds the page a row group failed on. Parquet's reader verifies every page's CRC (the page
 * header's {@code crc}: CRC32 of the page's bytes as stored, compressed) when it reads a row group,
 * but its error names neither the column nor the page; this walks the row group's column chunks
 * again, page header by page header, and says which page is damaged and how.
 *
 * <p>Runs only after a read failed, so it may read the chunks again; it never returns data.
 */
final class PageChecksums {
    private PageChecksums() {}

    /**
     * The first damaged page among {@code columns} of {@code rowGroup} (row group {@code index}):
     * a page header that does not parse, a page that runs past its chunk, or a page whose bytes do
     * not hash to its header's CRC. Empty when every page of those columns looks intact (the
     * failure was something else).
     */
    static Optional<String> locate(InputFile file, BlockMetaData rowGroup, int index, List<ColumnDescriptor> columns) {
        try (SeekableInputStream in = file.newStream()) {
            for (ColumnChunkMetaData chunk : rowGroup.getColumns()) {
                if (!requested(chunk, columns)) {
                    continue;
                }
                Optional<String> found = check(in, chunk);
                if (found.isPresent()) {
                    return Optional.of(
                            "column " + chunk.getPath().toDotString() + ", row group " + index + ", " + found.get());
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // only a diagnosis: the caller reports the original failure
        }
        return Optional.empty();
    }

    private static boolean requested(ColumnChunkMetaData chunk, List<ColumnDescriptor> columns) {
        String[] path = chunk.getPath().toArray();
        for (ColumnDescriptor c : columns) {
            if (Arrays.equals(path, c.getPath())) {
                return true;
            }
        }
        return false;
    }

    /** Walks one column chunk's pages (dictionary page first, if any) until its value count is reached. */
    private static Optional<String> check(SeekableInputStream in, ColumnChunkMetaData chunk) throws IOException {
        long start = chunk.getStartingPos();
        long size = chunk.getTotalSize();
        if (size < 0 || size > Integer.MAX_VALUE) {
            return Optional.of("the footer gives the column chunk at byte " + start + " a size of " + size);
        }
        byte[] bytes = new byte[(int) size];
        in.seek(start);
        in.readFully(bytes);
        ByteArrayInputStream stream = new ByteArrayInputStream(bytes);
        long values = 0;
        int page = 0;
        CRC32 crc = new CRC32();
        while (values < chunk.getValueCount() && stream.available() > 0) {
            long offset = start + (size - stream.available());
            PageHeader header;
            try {
                header = Util.readPageHeader(stream);
            } catch (IOException | RuntimeException e) {
                return Optional.of(
                        "page " + page + " at byte " + offset + ": its header does not parse (" + e.getMessage() + ")");
            }
            int length = header.getCompressed_page_size();
            String name = describe(header, page, offset);
            if (length < 0 || length > stream.available()) {
                return Optional.of(name + ": its header gives " + length + " bytes, past the column chunk's end");
            }
            int from = (int) (size - stream.available());
            stream.skip(length);
            if (header.isSetCrc()) {
                crc.reset();
                crc.update(bytes, from, length);
                if ((int) crc.getValue() != header.getCrc()) {
                    return Optional.of(name + ": CRC32 mismatch (the header says "
                            + Integer.toHexString(header.getCrc()) + ", the " + length + " bytes hash to "
                            + Long.toHexString(crc.getValue()) + ")");
                }
            }
            if (header.isSetData_page_header()) {
                values += header.getData_page_header().getNum_values();
                page++;
            } else if (header.isSetData_page_header_v2()) {
                values += header.getData_page_header_v2().getNum_values();
                page++;
            }
        }
        return Optional.empty();
    }

    private static String describe(PageHeader header, int page, long offset) {
        return header.isSetDictionary_page_header()
                ? "dictionary page at byte " + offset
                : "page " + page + " at byte " + offset;
    }
}
