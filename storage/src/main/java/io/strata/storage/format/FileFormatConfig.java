package io.strata.storage.format;

import io.strata.storage.options.FileOptions;
import io.strata.storage.options.TableOptions;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Parquet writer settings derived from table options; one per table handle (Configuration is costly to build). */
public final class FileFormatConfig {
    private final Configuration conf;
    private final CompressionCodecName codec;
    private final long blockSize;
    private final int pageSize;

    public FileFormatConfig(Configuration base, TableOptions options) {
        this.conf = new Configuration(base);
        FileOptions.Compression c = options.get(FileOptions.FILE_COMPRESSION);
        switch (c) {
            case ZSTD:
                codec = CompressionCodecName.ZSTD;
                break;
            case SNAPPY:
                codec = CompressionCodecName.SNAPPY;
                break;
            case GZIP:
                codec = CompressionCodecName.GZIP;
                break;
            default:
                codec = CompressionCodecName.UNCOMPRESSED;
        }
        conf.setInt("parquet.compression.codec.zstd.level", options.get(FileOptions.ZSTD_LEVEL));
        this.blockSize = options.get(FileOptions.BLOCK_SIZE);
        this.pageSize = (int) Math.min(Integer.MAX_VALUE, options.get(FileOptions.PAGE_SIZE));
    }

    public Configuration conf() {
        return conf;
    }

    public CompressionCodecName codec() {
        return codec;
    }

    public long blockSize() {
        return blockSize;
    }

    public int pageSize() {
        return pageSize;
    }
}
