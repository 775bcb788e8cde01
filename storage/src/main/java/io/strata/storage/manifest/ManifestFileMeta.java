package io.strata.storage.manifest;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.strata.storage.data.ValueCodec;
import java.io.IOException;
import java.util.Base64;

/**
 * A manifest as listed in a manifest list: its size and the CRC32C of its bytes (null in lists
 * written before it was recorded), how many ADD and DELETE entries it holds, and the range of
 * partitions and buckets it covers (per partition field min and max), so a scan can skip
 * manifests that cannot contain a wanted partition.
 */
public final class ManifestFileMeta {
    private final String fileName;
    private final long fileSize;
    private final long numAdded;
    private final long numDeleted;
    private final Object[] partitionMin;
    private final Object[] partitionMax;
    private final int minBucket;
    private final int maxBucket;
    private final String crc32c;

    public ManifestFileMeta(
            String fileName,
            long fileSize,
            String crc32c,
            long numAdded,
            long numDeleted,
            Object[] partitionMin,
            Object[] partitionMax,
            int minBucket,
            int maxBucket) {
        this.fileName = fileName;
        this.crc32c = crc32c;
        this.fileSize = fileSize;
        this.numAdded = numAdded;
        this.numDeleted = numDeleted;
        this.partitionMin = partitionMin;
        this.partitionMax = partitionMax;
        this.minBucket = minBucket;
        this.maxBucket = maxBucket;
    }

    @JsonCreator
    static ManifestFileMeta fromJson(
            @JsonProperty("fileName") String fileName,
            @JsonProperty("fileSize") long fileSize,
            @JsonProperty("crc32c") String crc32c,
            @JsonProperty("numAdded") long numAdded,
            @JsonProperty("numDeleted") long numDeleted,
            @JsonProperty("partitionMin") String partitionMin,
            @JsonProperty("partitionMax") String partitionMax,
            @JsonProperty("minBucket") int minBucket,
            @JsonProperty("maxBucket") int maxBucket)
            throws IOException {
        return new ManifestFileMeta(
                fileName,
                fileSize,
                crc32c,
                numAdded,
                numDeleted,
                decode(partitionMin),
                decode(partitionMax),
                minBucket,
                maxBucket);
    }

    private static Object[] decode(String b64) throws IOException {
        return b64 == null
                ? new Object[0]
                : ValueCodec.decodeTuple(Base64.getDecoder().decode(b64));
    }

    private static String encode(Object[] t) {
        return Base64.getEncoder().encodeToString(ValueCodec.encodeTuple(t));
    }

    @JsonProperty("fileName")
    public String fileName() {
        return fileName;
    }

    @JsonProperty("fileSize")
    public long fileSize() {
        return fileSize;
    }

    /** The CRC32C of the manifest's bytes, 8 lowercase hex digits; null when the list predates it. */
    @JsonProperty("crc32c")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public String crc32c() {
        return crc32c;
    }

    @JsonProperty("numAdded")
    public long numAdded() {
        return numAdded;
    }

    @JsonProperty("numDeleted")
    public long numDeleted() {
        return numDeleted;
    }

    @JsonProperty("minBucket")
    public int minBucket() {
        return minBucket;
    }

    @JsonProperty("maxBucket")
    public int maxBucket() {
        return maxBucket;
    }

    @JsonIgnore
    public Object[] partitionMin() {
        return partitionMin;
    }

    @JsonIgnore
    public Object[] partitionMax() {
        return partitionMax;
    }

    @JsonProperty("partitionMin")
    String partitionMinText() {
        return encode(partitionMin);
    }

    @JsonProperty("partitionMax")
    String partitionMaxText() {
        return encode(partitionMax);
    }

    @Override
    public String toString() {
        return fileName + "(+" + numAdded + " -" + numDeleted + ")";
    }
}
