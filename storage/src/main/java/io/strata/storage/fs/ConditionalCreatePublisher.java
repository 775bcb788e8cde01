package io.strata.storage.fs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Object stores with conditional create (S3's {@code PUT} with {@code If-None-Match: *}, offered by
 * S3A since Hadoop 3.4.2 through the {@code createFile()} builder option {@value #OPTION}): the
 * snapshot is written in one PUT that the store refuses, with 412, if the object exists. The store
 * decides atomically, so no lock is needed.
 *
 * <p>A store that ignores the header would let a second committer overwrite a snapshot, so {@link
 * #honoured} probes a store once before Strata trusts it (docs/FORMAT.md).
 */
final class ConditionalCreatePublisher implements AtomicPublisher {
    /** Hadoop's createFile() option: create only if no file exists at the path, decided by the store. */
    static final String OPTION = "fs.option.create.conditional.overwrite";

    private final FileSystem fs;

    ConditionalCreatePublisher(FileSystem fs) {
        this.fs = fs;
    }

    /** Whether the file system's client offers conditional create under {@code path}. */
    static boolean offered(FileSystem fs, Path path) throws IOException {
        try {
            return fs.hasPathCapability(path, OPTION);
        } catch (IllegalArgumentException wrongFileSystem) {
            return false; // a path of another file system: nothing this one offers applies to it
        }
    }

    @Override
    public boolean publish(Path target, byte[] content) throws IOException {
        FSDataOutputStream out;
        try {
            // createFile() returns the raw builder type: its build() is typed Object
            out = (FSDataOutputStream) fs.createFile(target)
                    .recursive()
                    .overwrite(false)
                    .must(OPTION, true)
                    .build();
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        try (FSDataOutputStream o = out) {
            o.write(content); // the PUT, and the store's check, happen in close()
        } catch (IOException e) {
            if (e instanceof FileAlreadyExistsException || S3aErrors.isRemoteFileChanged(e)) {
                return false;
            }
            throw e;
        }
        return true;
    }

    /**
     * Creates a hidden probe object in {@code dir} twice with conditional create and deletes it:
     * true when the store refused the second create. A store that accepts it ignores the
     * condition (s3proxy 2.6.0 does, for one).
     */
    boolean honoured(Path dir) throws IOException {
        Path probe = new Path(dir, ".conditional-create-probe." + UUID.randomUUID() + ".tmp");
        try {
            if (!publish(probe, "first".getBytes(StandardCharsets.UTF_8))) {
                throw new IOException("conditional create of the new probe object " + probe + " was refused");
            }
            return !publish(probe, "second".getBytes(StandardCharsets.UTF_8));
        } finally {
            fs.delete(probe, false);
        }
    }

    @Override
    public String describe() {
        return "conditional create (If-None-Match)";
    }
}
