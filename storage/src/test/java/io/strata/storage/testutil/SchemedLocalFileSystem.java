package io.strata.storage.testutil;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local disk under whatever Hadoop scheme it is installed as ({@code fs.<scheme>.impl}, with
 * {@code fs.<scheme>.impl.disable.cache}): a warehouse {@code <scheme>:///dir} is then opened as a
 * Hadoop file system ({@code HadoopFileIO}, Hadoop's streams, as on HDFS and S3A) over local files
 * that tests can read and damage directly. Subclasses add the behaviour of the store they stand
 * for.
 */
public class SchemedLocalFileSystem extends RawLocalFileSystem {
    private URI uri;

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        this.uri = URI.create(name.getScheme() + ":///");
    }

    // the constructor asks before initialize
    @Override
    public URI getUri() {
        return uri == null ? super.getUri() : uri;
    }

    @Override
    public String getScheme() {
        return getUri().getScheme();
    }
}
