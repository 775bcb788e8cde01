package io.strata.storage.fs;

import java.io.IOException;
import java.util.Collection;
import org.apache.hadoop.fs.Path;

/** A local warehouse's FileIO whose {@link #makeDurable} fails, as a disk refusing a force would. */
public final class FailingDurabilityFileIO extends DelegatingFileIO {
    public FailingDurabilityFileIO(String warehouse) {
        super(warehouse);
    }

    @Override
    public void makeDurable(Collection<Path> files) throws IOException {
        local.makeDurable(files); // whatever is pending settles first
        throw new IOException(
                "cannot force data file " + files.iterator().next().getName() + " to disk: injected");
    }
}
